// Browser tests of `tuzdik gui`: the real server and engine, the page in Debian's headless
// Chromium (driven by playwright-core; no browser is downloaded). Run from this directory
// with `npm test` after `cargo build`; TUZDIK_BIN overrides the binary.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const binary = process.env.TUZDIK_BIN || path.join(root, 'target', 'debug', 'tuzdik');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

const servers = [];
let browser;

// Starts `tuzdik gui` on a free port and answers its address.
function startServer(extra = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['gui', '--no-browser', '--port', '0', ...extra], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) resolve(match[0]);
    });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => reject(new Error(`tuzdik gui exited (${code}): ${output}`)));
  });
}

// A server whose engine is tests/engines/<script> wrapping the real one.
function startWrapped(script) {
  return startServer(['--engine', `python3 ${path.join(root, 'tests', 'engines', script)}`], { TUZDIK_ENGINE: binary });
}

// A fresh game in which the engine is asked for a move, then the first error it shows.
async function engineMoveError(page) {
  await page.click('#new-game');
  await page.fill('#movetime', '100');
  await page.click('#engine-move');
  await page.waitForSelector('#errors .error', { timeout: 15000 });
  return page.textContent('#errors');
}

async function openPage(url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.problems = problems;
  // Each test starts from a fresh game: what earlier tests stored is cleared, then the page
  // loads again without it.
  await page.goto(url);
  await page.evaluate(() => { localStorage.clear(); sessionStorage.clear(); });
  await page.reload();
  await page.waitForSelector('#board .hole');
  return page;
}

async function movesShown(page) {
  return page.$$eval('#moves .move', (spans) => spans.map((s) => s.textContent));
}

function hole(side, number) {
  return `#board .hole.${side}[data-hole="${number}"]`;
}

let url;
before(async () => {
  assert.ok(fs.existsSync(binary), `no ${binary}: run cargo build first`);
  url = await startServer();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tuzdik-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  for (const child of servers) child.kill();
});

test('moves are played by clicking legal holes, shown in PlayOK notation, and undone', async () => {
  const page = await openPage(url);
  await page.click('#new-game');
  assert.equal(await page.locator('#board .hole.legal').count(), 9);
  assert.equal(await page.locator('#board .hole.north.legal').count(), 0, 'North cannot move first');
  await page.click(hole('south', 8));
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  assert.deepEqual(await movesShown(page), ['87(10)']);
  assert.match(await page.textContent('#status'), /North to move/);
  assert.match(await page.getAttribute(hole('south', 8), 'class'), /last-from/);
  assert.match(await page.getAttribute(hole('north', 7), 'class'), /last-to/);
  assert.equal(await page.textContent(`${hole('north', 7)} .count`), '0', 'the even capture emptied North 7');
  assert.equal(await page.inputValue('#fen'), '9,9,9,9,9,9,9,1,10/10,10,10,10,10,10,0,9,9 10 0 b 1');
  // Clicking a hole of the side not to move does nothing.
  await page.click(hole('south', 1));
  assert.equal((await movesShown(page)).length, 1);
  await page.keyboard.press('8');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2);
  assert.deepEqual(await movesShown(page), ['87(10)', '87(10)']);
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.textContent('#status'), /North to move/);
  await page.keyboard.press('ArrowRight');
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await page.click('#flip');
  assert.match(await page.getAttribute('#board .row.bottom .hole', 'class'), /north/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the engine answers a move and the game can be played against it', async () => {
  const page = await openPage(url);
  await page.click('#new-game');
  await page.fill('#movetime', '100');
  await page.dispatchEvent('#movetime', 'change');
  await page.selectOption('#engine-side', 'north');
  await page.click(hole('south', 7));
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 15000 });
  assert.match(await page.textContent('#status'), /South to move/);
  assert.equal(await page.locator('#board .hole.south.legal').count() > 0, true);
  assert.ok(Number(await page.getAttribute('#graph', 'data-points')) >= 1, 'the engine\'s score is on the graph');
  await page.close();
});

test('analysis shows scored lines in PlayOK notation and a clicked line is played', async () => {
  const page = await openPage(url);
  await page.click('#new-game');
  await page.fill('#multipv', '2');
  await page.click('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length === 2, null, { timeout: 15000 });
  const first = await page.textContent('#lines li');
  assert.match(first, /^([+-]?\d+\.\d|[+-]M\d+) d\d+/);
  assert.match(first, /\b[1-9][1-9]X?(\(\d+\))?\b/);
  await page.click('#lines li .pv-move >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await page.click('#analyse');
  assert.equal(await page.textContent('#analyse'), 'Start analysis');
  await page.close();
});

test('a PlayOK PGN with two games loads into a list and steps to its end', async () => {
  const pgn = fs.readFileSync(path.join(here, 'two-games.pgn'), 'utf8');
  const page = await openPage(url);
  await page.fill('#pgn', pgn);
  await page.click('#load-pgn');
  await page.waitForFunction(() => document.querySelectorAll('#game-list option').length === 2);
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 92);
  assert.match(await page.textContent('#status'), /South to move, move 1/);
  await page.keyboard.press('End');
  assert.match(await page.textContent('#status'), /Game over: North wins/);
  assert.match(await page.textContent('#game-tags'), /White: abeke93/);
  await page.selectOption('#game-list', '1');
  await page.waitForFunction(() => !document.querySelector('#game-tags').textContent.includes('abeke93'));
  await page.click('#analyse-game');
  await page.fill('#game-movetime', '50');
  await page.waitForFunction(() => Number(document.querySelector('#graph').dataset.points) >= 5, null, { timeout: 20000 });
  await page.click('#analyse-game');
  // The graph's ends are the game's first and last positions.
  const graph = await page.locator('#graph').boundingBox();
  await page.mouse.click(graph.x + graph.width - 2, graph.y + graph.height / 2);
  assert.match(await page.textContent('#status'), /Game over/);
  await page.mouse.click(graph.x + 2, graph.y + graph.height / 2);
  assert.match(await page.textContent('#status'), /South to move, move 1\b/);
  await page.fill('#pgn', '[Event "x"]\n1. 11 *');
  await page.click('#load-pgn');
  await page.waitForSelector('#errors .error');
  assert.match(await page.textContent('#errors'), /lands in hole 9/);
  await page.close();
});

test('Mangala IV shows captured counters, the forced hole and passes', async () => {
  const page = await openPage(url);
  await page.selectOption('#family', 'mangala4');
  await page.waitForFunction(() => document.querySelectorAll('#board .row.bottom .hole').length === 7);
  assert.match(await page.textContent('#board .kazans'), /captured/);
  assert.equal(await page.locator('#board .hole.forced').count(), 1);
  assert.match(await page.textContent('#status'), /forced: hole 1/);
  await page.fill('#fen', '0,0,0,0,0,0,0/1,0,0,0,0,0,0 48 49 w');
  await page.click('#set-fen');
  await page.waitForSelector('#pass:not([hidden])');
  assert.match(await page.textContent('#status'), /must pass/);
  await page.click('#pass');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  assert.deepEqual(await movesShown(page), ['0000']);
  await page.close();
});

test('a bad position string is refused with a message and the game is kept', async () => {
  const page = await openPage(url);
  await page.click('#new-game');
  await page.click(hole('south', 1));
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await page.fill('#fen', '9,9,9/9,9,9 0 0 w');
  await page.click('#set-fen');
  await page.waitForSelector('#errors .error');
  assert.match(await page.textContent('#errors'), /South row: 3 holes/);
  assert.equal((await movesShown(page)).length, 1);
  await page.close();
});

test('the game survives a reload, and a phone-width window needs no sideways scrolling', async () => {
  const page = await openPage(url, { width: 390, height: 800 });
  await page.click('#new-game');
  await page.click(hole('south', 3));
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width}px wide`);
  // The first tab is closed first: while open it keeps saving its game to the shared store,
  // which raced with the second tab's fresh start.
  await page.close();
  const second = await openPage(url);
  await second.click('#new-game');
  await second.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0);
  assert.equal((await movesShown(second)).length, 0);
  await second.close();
});

test('an engine that crashes is reported in the page and started again', async () => {
  const page = await openPage(await startWrapped('misbehave.py crash 1'));
  assert.match(await engineMoveError(page), /engine stopped \(exit status: 3\)/);
  assert.equal((await movesShown(page)).length, 0, 'no move was played');
  // The next request starts a fresh engine, which misbehaves only at its first go again.
  await page.click('#engine-move');
  await page.waitForFunction(() => document.querySelectorAll('#errors .error').length >= 2, null, { timeout: 15000 });
  await page.close();
});

test('an engine that declares levels gets a level list, and its WDL is shown', async () => {
  const page = await openPage(await startWrapped('levels.py'));
  await page.waitForSelector('#level-label:not([hidden])');
  const levels = await page.$$eval('#level option', (o) => o.map((x) => x.textContent));
  assert.equal(levels[0], 'full strength');
  assert.ok(levels.includes('Elo 1000'), levels.join(', '));
  await page.selectOption('#level', 'UCI_Elo=1000');
  assert.equal(await page.locator('#level-label').isHidden(), false);
  await page.click('#new-game');
  await page.fill('#movetime', '100');
  await page.click('#engine-move');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1, null, { timeout: 15000 });
  assert.deepEqual(await page.$$eval('#errors .error', (e) => e.length), 0);
  // Its info lines carry WDL, which the analysis shows.
  await page.click('#analyse');
  await page.waitForFunction(() => document.querySelector('#wdl').textContent !== '', null, { timeout: 15000 });
  assert.match(await page.textContent('#wdl'), /W 60\.0% · D 30\.0% · L 10\.0%/);
  await page.click('#analyse');
  await page.close();
});

test('an illegal engine move is refused in the page and the board stays as it was', async () => {
  const page = await openPage(await startWrapped('misbehave.py illegal 1'));
  assert.match(await engineMoveError(page), /bestmove 0000', which is not a legal move here/);
  assert.equal(await page.inputValue('#fen'), '9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1');
  assert.equal((await movesShown(page)).length, 0);
  await page.close();
});
