// Tuzdik's board page. The server knows the rules (it answers every position of the game with
// its legal moves) and relays the engine; this script keeps the game (variant, start, moves),
// draws it and talks to both. Nothing here decides legality: a move is shown only once the
// server has accepted it.
'use strict';

const $ = (id) => document.getElementById(id);
const SESSION = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()).replace(/[^A-Za-z0-9-]/g, '');
const STORE = 'tuzdik-gui-v1';
const FAMILY_TUZDIK = { togyz: true, kozdatu: false, bestemshchi: false, mangala4: false };

const S = {
  variant: 'togyz',
  start: '',
  moves: [],
  cursor: 0,
  game: null,
  flipped: false,
  tags: {},
  evals: [],
  engineSide: 'none',
  movetime: 1000,
  level: '',
  analysing: false,
  analysisSearch: null,
  analysisPly: null,
  lines: [],
  pending: null,
  gameAnalysis: null,
  engine: null,
  since: null,
  pgnGames: [],
};

// ---------------------------------------------------------------- server calls

async function post(path, fields, raw) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': raw ? 'text/plain; charset=utf-8' : 'application/x-www-form-urlencoded' },
      body: raw !== undefined ? raw : new URLSearchParams(fields),
    });
  } catch (e) {
    throw new Error('the server does not answer (is `tuzdik gui` still running?)');
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${path} with something that is not JSON`);
  }
  if (!response.ok || data.error) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function gameFields(moves) {
  return { variant: S.variant, fen: S.start, moves: moves.join(' ') };
}

// ---------------------------------------------------------------- messages

function showError(text) {
  const box = $('errors');
  const item = document.createElement('div');
  item.className = 'error';
  item.textContent = text;
  const close = document.createElement('button');
  close.textContent = '×';
  close.title = 'Dismiss';
  close.onclick = () => item.remove();
  item.appendChild(close);
  box.appendChild(item);
  while (box.children.length > 4) box.firstChild.remove();
}

function clearErrors() { $('errors').textContent = ''; }

// ---------------------------------------------------------------- persistence

function save() {
  const kept = {
    variant: S.variant, start: S.start, moves: S.moves, cursor: S.cursor, flipped: S.flipped,
    tags: S.tags, evals: S.evals, engineSide: S.engineSide, movetime: S.movetime, level: S.level,
  };
  // The tab's own copy brings its game back on a reload; the shared one starts a new tab
  // where the last game was.
  const text = JSON.stringify(kept);
  try { sessionStorage.setItem(STORE, text); localStorage.setItem(STORE, text); } catch (e) { /* private mode */ }
}

function restore() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORE) || localStorage.getItem(STORE) || 'null');
    if (kept && typeof kept === 'object') Object.assign(S, kept);
  } catch (e) { /* a broken store is ignored */ }
}

// ---------------------------------------------------------------- the game

// Asks the server for the game with `moves`; on success it becomes the game shown.
async function setGame(moves, cursor) {
  const game = await post('/api/game', gameFields(moves));
  S.moves = moves;
  S.game = game;
  S.cursor = Math.max(0, Math.min(cursor === undefined ? moves.length : cursor, moves.length));
  if (S.evals.length > game.plies.length) S.evals.length = game.plies.length;
  save();
  render();
  afterPositionChange();
}

async function playMoves(texts) {
  const base = S.moves.slice(0, S.cursor);
  const branch = S.cursor < S.moves.length;
  try {
    await setGame(base.concat(texts));
    if (branch) S.evals.length = base.length + 1;
  } catch (e) {
    showError(`Move refused: ${e.message}`);
  }
}

function ply() { return S.game ? S.game.plies[S.cursor] : null; }

function isEngineTurn() {
  const p = ply();
  return S.engineSide !== 'none' && p && !p.over && p.side === S.engineSide && S.cursor === S.moves.length;
}

async function newGame(start) {
  stopEverything();
  const before = { start: S.start, moves: S.moves, evals: S.evals, tags: S.tags };
  S.start = start || '';
  S.evals = [];
  S.tags = {};
  try {
    await setGame([], 0);
  } catch (e) {
    Object.assign(S, before);
    showError(`Cannot set up: ${e.message}`);
  }
}

function stepTo(target) {
  if (!S.game) return;
  const next = Math.max(0, Math.min(target, S.moves.length));
  if (next === S.cursor) return;
  S.cursor = next;
  save();
  render();
  afterPositionChange();
}

async function undo() {
  if (!S.moves.length) return;
  stopSearches();
  // Against the engine, take back the engine's answer too, so it is the player's turn again.
  let keep = S.moves.length - 1;
  if (S.engineSide !== 'none' && S.game.plies[keep].side === S.engineSide && keep > 0) keep -= 1;
  try { await setGame(S.moves.slice(0, keep)); } catch (e) { showError(e.message); }
}

// ---------------------------------------------------------------- variant controls

function variantSpec() {
  const family = $('family').value;
  const parts = [family];
  if (family === 'mangala4') {
    if ($('sw-mangala').value !== 'leftmost') parts.push(`mangala=${$('sw-mangala').value}`);
  } else {
    const tuzdik = $('sw-tuzdik').checked;
    if (tuzdik !== FAMILY_TUZDIK[family]) parts.push(`tuzdik=${tuzdik ? 'on' : 'off'}`);
    if ($('sw-sowing').value !== 'standard') parts.push(`sowing=${$('sw-sowing').value}`);
    if ($('sw-capture').value !== 'standard') parts.push(`capture=${$('sw-capture').value}`);
  }
  return parts.join(' ');
}

function showVariant(spec) {
  const words = spec.split(/\s+/);
  const family = words[0];
  const get = (key, fallback) => {
    const found = words.find((w) => w.startsWith(key + '='));
    return found ? found.slice(key.length + 1) : fallback;
  };
  $('family').value = family;
  $('sw-tuzdik').checked = get('tuzdik', FAMILY_TUZDIK[family] ? 'on' : 'off') === 'on';
  $('sw-sowing').value = get('sowing', 'standard');
  $('sw-capture').value = get('capture', 'standard');
  $('sw-mangala').value = get('mangala', 'leftmost');
  document.body.classList.toggle('is-mangala', family === 'mangala4');
}

async function changeVariant(resetTuzdik) {
  if (resetTuzdik) $('sw-tuzdik').checked = FAMILY_TUZDIK[$('family').value];
  const before = S.variant;
  S.variant = variantSpec();
  S.tags = {};
  try {
    await newGame('');
  } catch (e) {
    S.variant = before;
  }
  showVariant(S.variant);
}

// ---------------------------------------------------------------- drawing

function stonesHtml(count) {
  if (count <= 0 || count > 20) return '';
  return '<span class="stones">' + '<i></i>'.repeat(count) + '</span>';
}

function holeHtml(p, side, hole) {
  const row = p[side];
  const count = row[hole - 1];
  const isTuzdik = p.tuzdik[side === 'south' ? 0 : 1] === hole;
  const classes = ['hole', side];
  const legal = p.side === side && !isEngineTurn() && p.legal.some((m) => m.hole === hole);
  if (legal) classes.push('legal');
  if (p.legal.length === 1 && legal && S.game.mangala) classes.push('forced');
  const last = p.move;
  if (last && last.side === side && last.from === hole) classes.push('last-from');
  if (last && last.landingSide === side && last.landing === hole) classes.push('last-to');
  if (isTuzdik) classes.push('tuzdik');
  const content = isTuzdik ? '<span class="mark">X</span>' : `<span class="count">${count}</span>${stonesHtml(count)}`;
  return `<div class="${classes.join(' ')}" data-side="${side}" data-hole="${hole}"` +
    (legal ? ` role="button" tabindex="0" aria-label="${side} hole ${hole}, ${count} stones"` : '') +
    `><span class="num">${hole}</span>${content}</div>`;
}

function render() {
  const p = ply();
  if (!p) return;
  const g = S.game;
  const n = g.holes;
  const top = S.flipped ? 'south' : 'north';
  const bottom = S.flipped ? 'north' : 'south';
  const topHoles = [];
  for (let h = n; h >= 1; h--) topHoles.push(holeHtml(p, top, h));
  const bottomHoles = [];
  for (let h = 1; h <= n; h++) bottomHoles.push(holeHtml(p, bottom, h));
  const store = g.mangala ? 'captured' : 'kazan';
  const kazan = (side) => {
    const value = p.kazan[side === 'south' ? 0 : 1];
    const turn = p.side === side && !p.over ? ' to-move' : '';
    return `<div class="kazan ${side}${turn}"><span class="who">${side === 'south' ? 'South' : 'North'} ${store}</span>` +
      `<span class="count">${value}</span></div>`;
  };
  $('board').style.setProperty('--holes', n);
  $('board').innerHTML =
    `<div class="row top">${topHoles.join('')}</div>` +
    `<div class="kazans">${kazan(top)}${kazan(bottom)}</div>` +
    `<div class="row bottom">${bottomHoles.join('')}</div>`;
  $('board').className = g.family;
  renderStatus(p);
  $('fen').value = p.fen;
  const passLegal = p.legal.some((m) => m.hole === 0);
  $('pass').hidden = !passLegal || isEngineTurn();
  $('first').disabled = $('prev').disabled = S.cursor === 0;
  $('next').disabled = $('last').disabled = S.cursor === S.moves.length;
  $('undo').disabled = S.moves.length === 0;
  renderMoves();
  renderEval();
  renderGraph();
  renderLines();
}

function renderStatus(p) {
  const who = p.side === 'south' ? 'South' : 'North';
  let text;
  if (p.over) {
    const [s, nn] = p.over.scores;
    const winner = s > nn ? 'South wins' : nn > s ? 'North wins' : 'Draw';
    text = `Game over: ${winner}, ${s}–${nn} (${p.over.reason}). ${p.over.result}`;
  } else {
    text = `${who} to move, move ${p.fullmove}`;
    if (S.game.mangala && p.legal.length === 1) {
      text += p.legal[0].hole === 0 ? ' — must pass (no counters on the row)' : ` — forced: hole ${p.legal[0].hole}`;
    }
    if (isEngineTurn()) text += ' — the engine is thinking';
  }
  const e = S.evals[S.cursor];
  if (e) text += ` · eval ${scoreText(e)} for South (depth ${e.depth})`;
  $('status').textContent = text;
  $('status').classList.toggle('over', !!p.over);
}

function renderMoves() {
  const box = $('moves');
  const parts = [];
  const plies = S.game.plies;
  for (let i = 1; i < plies.length; i++) {
    const m = plies[i].move;
    const before = plies[i - 1];
    if (m.side === 'south' || i === 1) {
      parts.push(`<span class="number">${before.fullmove}.${m.side === 'north' ? '..' : ''}</span>`);
    }
    const current = i === S.cursor ? ' current' : '';
    parts.push(`<span class="move${current}" data-ply="${i}">${m.text}</span>`);
  }
  const last = plies[plies.length - 1];
  if (last.over) parts.push(`<span class="result">${last.over.result}</span>`);
  box.innerHTML = parts.join(' ') || '<span class="muted">no moves yet</span>';
  // Scroll the list alone (scrollIntoView would scroll the whole page on a phone too).
  const current = box.querySelector('.current');
  if (current) {
    const top = current.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  }
}

// A score from the side to move of ply `at`, turned to South's view: {cp} or {mate}.
function southScore(info, at) {
  const side = S.game.plies[at] ? S.game.plies[at].side : 'south';
  const sign = side === 'south' ? 1 : -1;
  if (info.mate !== undefined) return { mate: sign * info.mate };
  return { cp: sign * info.cp };
}

function scoreText(score) {
  if (score.mate !== undefined) return (score.mate > 0 ? '+M' : '-M') + Math.abs(score.mate);
  const stones = score.cp / 100;
  return (stones > 0 ? '+' : '') + stones.toFixed(1);
}

// The share of the bar South gets: 0.5 is level, a 10-stone lead about 0.88.
function southShare(score) {
  if (!score) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 500));
}

function renderEval() {
  const e = S.evals[S.cursor];
  const share = southShare(e);
  const fill = $('evalfill');
  fill.style.height = `${(S.flipped ? 1 - share : share) * 100}%`;
  fill.classList.toggle('flipped', S.flipped);
  $('evalbar').title = e ? `${scoreText(e)} for South (depth ${e.depth})` : 'no evaluation yet';
  $('evalbar').dataset.score = e ? scoreText(e) : '';
}

function renderGraph() {
  const canvas = $('graph');
  const width = canvas.clientWidth || 300;
  if (canvas.width !== width) canvas.width = width;
  const height = canvas.height;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = '#2b2b2b';
  ctx.fillRect(0, 0, width, height);
  const count = S.game.plies.length;
  const x = (i) => (count <= 1 ? width / 2 : (i / (count - 1)) * (width - 8) + 4);
  const y = (share) => height - share * height;
  ctx.strokeStyle = '#555';
  ctx.beginPath(); ctx.moveTo(0, height / 2); ctx.lineTo(width, height / 2); ctx.stroke();
  ctx.fillStyle = 'rgba(240,235,220,0.85)';
  ctx.beginPath();
  ctx.moveTo(x(0), height);
  let drawn = 0;
  for (let i = 0; i < count; i++) {
    const e = S.evals[i];
    if (!e) continue;
    ctx.lineTo(x(i), y(southShare(e)));
    drawn++;
  }
  ctx.lineTo(x(count - 1), height);
  ctx.closePath();
  if (drawn) ctx.fill();
  ctx.fillStyle = '#e9a23b';
  for (let i = 0; i < count; i++) {
    const e = S.evals[i];
    if (e) ctx.fillRect(x(i) - 1.5, y(southShare(e)) - 1.5, 3, 3);
  }
  ctx.strokeStyle = '#e9a23b';
  ctx.beginPath(); ctx.moveTo(x(S.cursor), 0); ctx.lineTo(x(S.cursor), height); ctx.stroke();
  canvas.dataset.points = String(drawn);
}

function renderLines() {
  const list = $('lines');
  const valid = S.analysisPly === S.cursor ? S.lines.filter(Boolean) : [];
  const html = valid.map((line, index) => {
    const moves = line.pv.map((m, k) => `<span class="pv-move" data-line="${index}" data-k="${k}">${m}</span>`).join(' ');
    return `<li data-line="${index}"><b class="score">${scoreText(line.score)}</b> <span class="muted">d${line.depth || '?'} · ${formatNodes(line.nodes)}</span> ${moves}</li>`;
  }).join('');
  // Rewritten only when it changed, so a line under the pointer is not swapped needlessly.
  if (list.innerHTML !== html) list.innerHTML = html;
  const best = valid[0];
  $('wdl').textContent = best && best.wdl ? `W ${(best.wdl[0] / 10).toFixed(1)}% · D ${(best.wdl[1] / 10).toFixed(1)}% · L ${(best.wdl[2] / 10).toFixed(1)}% (side to move)` : '';
}

function formatNodes(n) {
  if (n === undefined) return '';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M nodes';
  if (n >= 1e3) return (n / 1e3).toFixed(0) + 'k nodes';
  return n + ' nodes';
}

// ---------------------------------------------------------------- the engine

function engineOptions() {
  const options = {};
  const multipv = Math.max(1, Math.min(9, parseInt($('multipv').value, 10) || 1));
  options['option.MultiPV'] = String(multipv);
  if (S.level && S.engine) {
    const [name, value] = S.level.split('=');
    if (name === 'UCI_Elo') options['option.UCI_LimitStrength'] = 'true';
    options[`option.${name}`] = value;
  } else if (S.engine && S.engine.options.some((o) => o.name === 'UCI_LimitStrength')) {
    options['option.UCI_LimitStrength'] = 'false';
  }
  return options;
}

async function search(movetime, purpose) {
  const fields = Object.assign(gameFields(S.moves.slice(0, S.cursor)), { session: SESSION }, engineOptions());
  if (purpose === 'move') fields['option.MultiPV'] = '1';
  if (movetime) fields.movetime = String(movetime);
  const answer = await post('/api/engine/go', fields);
  return answer.search;
}

async function engineMove() {
  const p = ply();
  if (!p || S.pending) return;
  if (p.over) { showError('The game is over: there is no move to make'); return; }
  if (S.analysing) await stopAnalysis();
  const movetime = Math.max(50, Math.min(600000, parseInt($('movetime').value, 10) || 1000));
  S.movetime = movetime;
  const at = S.cursor;
  S.pending = { search: null, ply: at, moves: S.moves.length };
  $('thinking').textContent = 'thinking…';
  render();
  try {
    const id = await search(movetime, 'move');
    if (S.pending && S.pending.ply === at) S.pending.search = id;
  } catch (e) {
    S.pending = null;
    $('thinking').textContent = '';
    showError(`Engine move: ${e.message}`);
    render();
  }
}

async function startAnalysis() {
  const p = ply();
  S.lines = [];
  S.analysisPly = S.cursor;
  renderLines();
  if (!p || p.over) { S.analysisSearch = null; return; }
  try {
    const at = S.cursor;
    const id = await search(null, 'analysis');
    S.analysisSearch = id;
    S.analysisPly = at;
  } catch (e) {
    showError(`Analysis: ${e.message}`);
    setAnalysing(false);
  }
}

async function stopAnalysis() {
  S.analysisSearch = null;
  try { await post('/api/engine/stop', { session: SESSION }); } catch (e) { showError(`Stop: ${e.message}`); }
}

function setAnalysing(on) {
  S.analysing = on;
  $('analyse').textContent = on ? 'Stop analysis' : 'Start analysis';
  $('analyse').classList.toggle('active', on);
}

async function toggleAnalysis() {
  if (S.analysing) {
    setAnalysing(false);
    await stopAnalysis();
  } else {
    setAnalysing(true);
    if (S.gameAnalysis) S.gameAnalysis = null;
    await startAnalysis();
  }
}

function stopSearches() {
  S.pending = null;
  $('thinking').textContent = '';
  if (S.analysisSearch !== null || S.gameAnalysis) {
    S.analysisSearch = null;
    S.gameAnalysis = null;
    post('/api/engine/stop', { session: SESSION }).catch(() => {});
  }
}

function stopEverything() {
  setAnalysing(false);
  stopSearches();
  $('game-progress').textContent = '';
}

function afterPositionChange() {
  if (S.pending && (S.pending.ply !== S.cursor || S.pending.moves !== S.moves.length)) {
    S.pending = null;
    $('thinking').textContent = '';
  }
  if (isEngineTurn() && !S.gameAnalysis) {
    engineMove();
  } else if (S.analysing) {
    startAnalysis();
  }
}

async function analyseGame() {
  if (S.gameAnalysis) {
    stopEverything();
    return;
  }
  setAnalysing(false);
  S.pending = null;
  const movetime = Math.max(50, Math.min(60000, parseInt($('game-movetime').value, 10) || 300));
  S.gameAnalysis = { ply: 0, search: null, movetime };
  $('analyse-game').textContent = 'Stop';
  await analyseNextPly();
}

async function analyseNextPly() {
  const job = S.gameAnalysis;
  if (!job) return;
  const plies = S.game.plies;
  while (job.ply < plies.length && plies[job.ply].over) job.ply++;
  if (job.ply >= plies.length) {
    finishGameAnalysis(`done: ${plies.length} positions`);
    return;
  }
  $('game-progress').textContent = `position ${job.ply + 1} of ${plies.length}`;
  const fields = Object.assign(gameFields(S.moves.slice(0, job.ply)), { session: SESSION, movetime: String(job.movetime) }, engineOptions());
  fields['option.MultiPV'] = '1';
  try {
    const answer = await post('/api/engine/go', fields);
    if (S.gameAnalysis === job) job.search = answer.search;
  } catch (e) {
    showError(`Game analysis: ${e.message}`);
    finishGameAnalysis('stopped by an error');
  }
}

function finishGameAnalysis(text) {
  S.gameAnalysis = null;
  $('analyse-game').textContent = 'Analyse the whole game';
  $('game-progress').textContent = text;
  save();
}

function storeEval(at, info) {
  const score = southScore(info, at);
  const old = S.evals[at];
  if (!old || (info.depth || 0) >= (old.depth || 0) || old.stale) {
    S.evals[at] = Object.assign(score, { depth: info.depth || 0 });
  }
}

function onEvent(event) {
  switch (event.type) {
    case 'engine':
      S.engine = event.engine;
      showEngine();
      break;
    case 'message':
      if (event.error) showError(`The engine says: ${event.text}`);
      break;
    case 'info': {
      if ((event.multipv || 1) > 1 && event.search !== S.analysisSearch) break;
      if (event.search === S.analysisSearch) {
        const k = (event.multipv || 1) - 1;
        S.lines[k] = { score: southScore(event, S.analysisPly), depth: event.depth, nodes: event.nodes, pv: event.pv, wdl: event.wdl };
        // Lines are shown from South's view like the bar and the graph.
        if (k === 0) storeEval(S.analysisPly, event);
        if (S.analysisPly === S.cursor) { renderLines(); renderEval(); renderGraph(); renderStatus(ply()); }
      } else if (S.pending && event.search === S.pending.search) {
        storeEval(S.pending.ply, event);
        $('thinking').textContent = `depth ${event.depth || '?'}: ${scoreText(southScore(event, S.pending.ply))} ${event.pv.slice(0, 4).join(' ')}`;
        renderGraph();
      } else if (S.gameAnalysis && event.search === S.gameAnalysis.search) {
        storeEval(S.gameAnalysis.ply, event);
        renderGraph();
        if (S.gameAnalysis.ply === S.cursor) renderEval();
      }
      break;
    }
    case 'bestmove':
      if (S.pending && event.search === S.pending.search) {
        const at = S.pending.ply;
        S.pending = null;
        $('thinking').textContent = `played ${event.move}`;
        if (at === S.cursor && S.cursor === S.moves.length) playMoves([event.move]);
      } else if (S.gameAnalysis && event.search === S.gameAnalysis.search) {
        S.gameAnalysis.ply++;
        save();
        analyseNextPly();
      }
      break;
    case 'error':
      showError(`Engine: ${event.message}`);
      if (S.pending && (event.search === undefined || event.search === S.pending.search)) {
        S.pending = null;
        $('thinking').textContent = '';
        render();
      }
      if (event.search !== undefined && event.search === S.analysisSearch) {
        S.analysisSearch = null;
        setAnalysing(false);
      }
      if (S.gameAnalysis && (event.search === undefined || event.search === S.gameAnalysis.search)) {
        finishGameAnalysis('stopped: the engine failed');
      }
      break;
    default:
      break;
  }
}

async function pollEvents() {
  for (;;) {
    try {
      const query = new URLSearchParams({ session: SESSION, wait: '20000' });
      if (S.since !== null) query.set('since', String(S.since));
      const response = await fetch(`/api/engine/events?${query}`);
      const data = await response.json();
      if (data.error) throw new Error(data.error);
      const first = S.since === null;
      S.since = data.next;
      if (!first) data.events.forEach((text) => onEvent(typeof text === 'string' ? JSON.parse(text) : text));
      $('engine-name').classList.remove('offline');
    } catch (e) {
      $('engine-name').classList.add('offline');
      $('engine-name').textContent = 'server unreachable — retrying';
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function showEngine() {
  const engine = S.engine;
  $('engine-name').textContent = engine ? `engine: ${engine.name || 'unnamed'}` : '';
  const select = $('level');
  const options = engine ? engine.options : [];
  const elo = options.find((o) => o.name === 'UCI_Elo' && o.type === 'spin');
  const skill = options.find((o) => o.name === 'Skill Level' && o.type === 'spin');
  const levels = ['<option value="">full strength</option>'];
  if (elo && elo.min !== undefined && elo.max !== undefined) {
    const step = Math.max(1, Math.round((elo.max - elo.min) / 8));
    for (let v = elo.min; v < elo.max; v += step) levels.push(`<option value="UCI_Elo=${v}">Elo ${v}</option>`);
  } else if (skill && skill.min !== undefined && skill.max !== undefined) {
    for (let v = skill.min; v < skill.max; v++) levels.push(`<option value="Skill Level=${v}">skill ${v}</option>`);
  }
  select.innerHTML = levels.join('');
  $('level-label').hidden = levels.length === 1;
  if ([...select.options].some((o) => o.value === S.level)) select.value = S.level;
  else S.level = '';
  const multipv = options.find((o) => o.name.toLowerCase() === 'multipv');
  if (multipv && multipv.max) $('multipv').max = String(multipv.max);
}

// ---------------------------------------------------------------- PGN

async function loadPgn(text) {
  if (!text.trim()) { showError('PGN: paste a game or choose a file first'); return; }
  let data;
  try { data = await post('/api/pgn/read', null, text); } catch (e) { showError(e.message); return; }
  S.pgnGames = data.games;
  const list = $('game-list');
  list.innerHTML = data.games.map((g, i) => {
    const tag = (name) => (g.tags.find(([k]) => k === name) || [, ''])[1];
    const label = `${g.index}. ${tag('White') || '?'} – ${tag('Black') || '?'} ${g.error ? '(unreadable)' : `${g.result} · ${g.moves.length} moves`}`;
    return `<option value="${i}">${escapeHtml(label)}</option>`;
  }).join('');
  list.hidden = data.games.length < 2;
  await chooseGame(0);
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

async function chooseGame(index) {
  const g = S.pgnGames[index];
  if (!g) return;
  $('game-list').value = String(index);
  if (g.error) { showError(`Game ${g.index} (line ${g.line}): ${g.error}`); return; }
  stopEverything();
  const before = { variant: S.variant, start: S.start, evals: S.evals, tags: S.tags, moves: S.moves };
  S.variant = g.variant;
  S.start = g.start;
  S.evals = [];
  S.tags = Object.fromEntries(g.tags);
  S.engineSide = 'none';
  $('engine-side').value = 'none';
  try {
    await setGame(g.moves, 0);
    showVariant(S.variant);
    $('game-tags').textContent = ['Event', 'Date', 'White', 'Black', 'Result'].filter((k) => S.tags[k]).map((k) => `${k}: ${S.tags[k]}`).join(' · ');
  } catch (e) {
    Object.assign(S, before);
    showError(`Game ${g.index}: ${e.message}`);
  }
}

async function savePgn() {
  const side = S.engineSide;
  const name = S.engine ? S.engine.name : 'engine';
  const fields = Object.assign(gameFields(S.moves), {
    event: S.tags.Event || 'Tuzdik GUI game',
    site: S.tags.Site || '',
    date: S.tags.Date || new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
    white: S.tags.White || (side === 'south' ? name : 'Player'),
    black: S.tags.Black || (side === 'north' ? name : 'Player'),
  });
  try {
    const data = await post('/api/pgn/write', fields);
    $('pgn').value = data.pgn;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([data.pgn], { type: 'application/x-chess-pgn' }));
    link.download = 'tuzdik-game.pgn';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } catch (e) {
    showError(`Save: ${e.message}`);
  }
}

// ---------------------------------------------------------------- input

function clickHole(target) {
  const hole = target.closest('.hole.legal');
  if (!hole) return;
  const p = ply();
  const move = p.legal.find((m) => m.hole === Number(hole.dataset.hole));
  if (move && hole.dataset.side === p.side) playMoves([move.text]);
}

function wire() {
  $('board').addEventListener('click', (e) => clickHole(e.target));
  $('board').addEventListener('keydown', (e) => { if (e.key === 'Enter') clickHole(e.target); });
  $('first').onclick = () => stepTo(0);
  $('prev').onclick = () => stepTo(S.cursor - 1);
  $('next').onclick = () => stepTo(S.cursor + 1);
  $('last').onclick = () => stepTo(S.moves.length);
  $('undo').onclick = undo;
  $('pass').onclick = () => playMoves(['0000']);
  $('flip').onclick = () => { S.flipped = !S.flipped; save(); render(); };
  $('new-game').onclick = () => changeVariant(false);
  $('family').onchange = () => changeVariant(true);
  for (const id of ['sw-tuzdik', 'sw-sowing', 'sw-capture', 'sw-mangala']) $(id).onchange = () => changeVariant(false);
  $('engine-side').onchange = () => { S.engineSide = $('engine-side').value; save(); render(); afterPositionChange(); };
  $('movetime').onchange = () => { S.movetime = parseInt($('movetime').value, 10) || 1000; save(); };
  $('level').onchange = () => { S.level = $('level').value; save(); };
  $('engine-move').onclick = () => { if (S.cursor === S.moves.length) engineMove(); else showError('Go to the last move first: the engine moves at the end of the game'); };
  $('analyse').onclick = toggleAnalysis;
  $('multipv').onchange = () => { if (S.analysing) startAnalysis(); };
  $('analyse-game').onclick = analyseGame;
  $('moves').addEventListener('click', (e) => { const m = e.target.closest('.move'); if (m) stepTo(Number(m.dataset.ply)); });
  // Taken on pointerdown, not click: while the engine analyses the lines are redrawn many
  // times a second, and a click whose press and release land on two versions of a line is lost.
  $('lines').addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const li = e.target.closest('li');
    if (!li) return;
    const line = S.lines.filter(Boolean)[Number(li.dataset.line)];
    if (!line) return;
    const upto = e.target.classList.contains('pv-move') ? Number(e.target.dataset.k) + 1 : line.pv.length;
    playMoves(line.pv.slice(0, upto));
  });
  $('graph').addEventListener('click', (e) => {
    const rect = $('graph').getBoundingClientRect();
    const count = S.game.plies.length;
    const at = Math.round(((e.clientX - rect.left - 4) / Math.max(1, rect.width - 8)) * (count - 1));
    stepTo(at);
  });
  $('set-fen').onclick = () => newGame($('fen').value.trim());
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame($('fen').value.trim()); });
  $('copy-fen').onclick = async () => {
    try { await navigator.clipboard.writeText($('fen').value); } catch (e) { $('fen').select(); document.execCommand('copy'); }
  };
  $('random-setup').onclick = async () => {
    try {
      const data = await post('/api/setup', { seed: $('seed').value });
      await newGame(data.fen);
    } catch (e) { showError(`Set-up: ${e.message}`); }
  };
  $('load-pgn').onclick = () => loadPgn($('pgn').value);
  $('pgn-file').onchange = async () => {
    const file = $('pgn-file').files[0];
    if (!file) return;
    const text = await file.text();
    $('pgn').value = text.length > 200000 ? text.slice(0, 200000) + '\n…' : text;
    loadPgn(text);
  };
  $('game-list').onchange = () => chooseGame(Number($('game-list').value));
  $('save-pgn').onclick = savePgn;
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const p = ply();
    if (!p) return;
    if (/^[1-9]$/.test(e.key)) {
      const move = p.legal.find((m) => m.hole === Number(e.key));
      if (move && !isEngineTurn()) playMoves([move.text]);
    } else if (e.key === '0') {
      if (p.legal.some((m) => m.hole === 0) && !isEngineTurn()) playMoves(['0000']);
    } else if (e.key === 'ArrowLeft') stepTo(S.cursor - 1);
    else if (e.key === 'ArrowRight') stepTo(S.cursor + 1);
    else if (e.key === 'Home') stepTo(0);
    else if (e.key === 'End') stepTo(S.moves.length);
    else if (e.key === 'Backspace') undo();
    else if (e.key === 'f') $('flip').click();
    else if (e.key === 'a') toggleAnalysis();
    else return;
    e.preventDefault();
  });
  window.addEventListener('resize', () => { if (S.game) renderGraph(); });
  window.addEventListener('pagehide', () => {
    navigator.sendBeacon('/api/engine/close', new URLSearchParams({ session: SESSION }));
  });
}

async function main() {
  wire();
  restore();
  $('engine-side').value = S.engineSide;
  $('movetime').value = String(S.movetime);
  showVariant(S.variant);
  try {
    await setGame(S.moves, S.cursor);
  } catch (e) {
    showError(`The saved game could not be restored (${e.message}); a new game starts`);
    S.variant = 'togyz'; S.start = ''; S.evals = []; S.tags = {};
    showVariant(S.variant);
    await setGame([], 0);
  }
  pollEvents();
  post('/api/engine/start', { session: SESSION }).then((identity) => {
    S.engine = identity;
    showEngine();
  }).catch((e) => showError(`Engine: ${e.message}`));
}

window.tuzdik = S;
main();
