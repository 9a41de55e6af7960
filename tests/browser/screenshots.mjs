// Takes the README's screenshots of `tuzdik gui` (docs/gui-*.png): `node screenshots.mjs`
// from this directory after `cargo build --release` (TUZDIK_BIN overrides the binary).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const binary = process.env.TUZDIK_BIN || path.join(root, 'target', 'release', 'tuzdik');
const server = spawn(binary, ['gui', '--no-browser', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let text = '';
  server.stdout.on('data', (chunk) => {
    text += chunk;
    const match = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (match) resolve(match[0]);
  });
});
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tuzdik-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1180, height: 780 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
const moves = () => page.$$eval('#moves .move', (m) => m.length);
const shot = (name) => page.screenshot({ path: path.join(root, 'docs', name) });

// Play: the engine has North, a few moves in.
await page.goto(url);
await page.waitForSelector('#board .hole');
await page.click('#new-game');
await page.fill('#movetime', '300');
await page.dispatchEvent('#movetime', 'change');
await page.selectOption('#engine-side', 'north');
for (const hole of [7, 3, 9]) {
  const before = await moves();
  await page.click(`#board .hole.south[data-hole="${hole}"]`).catch(() => {});
  await page.waitForFunction((n) => document.querySelectorAll('#moves .move').length >= n + 2, before, { timeout: 20000 }).catch(() => {});
}
await shot('gui-play.png');

// Analysis: a PlayOK game, its graph filled in, three lines at move 20.
const pgn = fs.readFileSync(path.join(here, 'two-games.pgn'), 'utf8');
await page.fill('#pgn', pgn);
await page.click('#load-pgn');
await page.waitForFunction(() => document.querySelectorAll('#moves .move').length > 50);
await page.fill('#game-movetime', '60');
await page.click('#analyse-game');
await page.waitForFunction(() => /done/.test(document.querySelector('#game-progress').textContent), null, { timeout: 120000 });
await page.click('#moves .move >> nth=39');
await page.fill('#multipv', '3');
await page.click('#analyse');
await page.waitForTimeout(2500);
await shot('gui-analysis.png');
await page.click('#analyse');

// Mangala IV: a random traditional set-up, leftmost rule, a few moves in.
await page.selectOption('#family', 'mangala4');
await page.waitForFunction(() => document.querySelectorAll('#board .row.bottom .hole').length === 7);
await page.fill('#seed', '2024');
await page.click('#random-setup');
await page.waitForTimeout(300);
for (let i = 0; i < 3; i++) {
  await page.click('#board .hole.legal');
  await page.waitForTimeout(200);
}
await shot('gui-mangala.png');

await browser.close();
server.kill();
