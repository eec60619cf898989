// bench/peer/server.js: the boardgame.io peer of the benchmark suite, driven by tp-load like turnpostd
// SPDX-License-Identifier: MIT
//
// Usage: PEER_DIR=DIR node server.js PORT   (0: any port; the port is printed on stdout)
//
// A small dice-placement game in boardgame.io 0.50 (npm), run by boardgame.io's
// own game master (the code its socket.io server runs for every move: fetch
// the match from storage, check the player and the state id, run the move
// through the game reducer, store the new state, its log and metadata) with
// its own FlatFile storage (one JSON file per match and kind, node-persist).
// This file only adds the four HTTP endpoints tp-load uses against turnpostd,
// with the same bodies and headers:
//   POST /api/v1/games                 a match of N players; seat tokens
//   GET  /api/v1/games/{id}            move_count (boardgame.io's _stateID), active_seats, status, view
//   GET  /api/v1/games/{id}/legal      every legal step text of the token's seat
//   POST /api/v1/games/{id}/moves      {"moves":["place 2 mine"]} with If-Match: "N" (412 when stale)
// A move's answer carries the new state (G) as "view", as turnpostd's does.
'use strict';

const http = require('http');
const crypto = require('crypto');
const { Master } = require('boardgame.io/master');
const { FlatFile } = require('boardgame.io/server');
const { InitializeGame } = require('boardgame.io/internal');
const { INVALID_MOVE } = require('boardgame.io/core');

const FACILITIES = {
	// name: [ports, test of a die value]
	solar: [8, () => true],
	mine: [4, (v) => v >= 4],
	market: [4, (v) => v % 2 === 0],
	shipyard: [3, (v) => v >= 5],
	hub: [6, (v) => v <= 3],
};
const WIN_COLONIES = 6;
const MAX_ROUNDS = 60;

const DiceColonies = {
	name: 'dice-colonies',
	setup: ({ ctx }) => {
		const n = ctx.numPlayers;
		const G = { dice: [], placed: [], docks: {}, fuel: [], ore: [], colonies: [], ships: [] };
		for (const f of Object.keys(FACILITIES)) G.docks[f] = [];
		for (let i = 0; i < n; i++) {
			G.fuel.push(1);
			G.ore.push(0);
			G.colonies.push(0);
			G.ships.push(3);
		}
		return G;
	},
	turn: {
		onBegin: ({ G, ctx, random }) => {
			const me = Number(ctx.currentPlayer);
			for (const f of Object.keys(G.docks)) G.docks[f] = G.docks[f].filter((d) => d.seat !== me);
			G.dice = random.D6(G.ships[me]);
			G.placed = G.dice.map(() => false);
		},
	},
	moves: {
		place: ({ G, ctx }, i, fac) => {
			const me = Number(ctx.currentPlayer);
			const f = FACILITIES[fac];
			if (!f || !Number.isInteger(i) || i < 0 || i >= G.dice.length || G.placed[i]) return INVALID_MOVE;
			if (G.docks[fac].length >= f[0] || !f[1](G.dice[i])) return INVALID_MOVE;
			G.placed[i] = true;
			G.docks[fac].push({ seat: me, value: G.dice[i] });
			if (fac === 'solar') G.fuel[me] += 1;
			else if (fac === 'mine') G.ore[me] += 1;
			else if (fac === 'market' && G.fuel[me] >= 2) { G.fuel[me] -= 2; G.ore[me] += 1; }
			else if (fac === 'shipyard' && G.ships[me] < 6 && G.fuel[me] >= 1) { G.fuel[me] -= 1; G.ships[me] += 1; }
			else if (fac === 'hub') G.fuel[me] += 1;
		},
		colonize: ({ G, ctx }) => {
			const me = Number(ctx.currentPlayer);
			if (G.ore[me] < 3 || G.fuel[me] < 1) return INVALID_MOVE;
			G.ore[me] -= 3;
			G.fuel[me] -= 1;
			G.colonies[me] += 1;
		},
		end: ({ G, events }) => {
			if (legalPlacements(G).length) return INVALID_MOVE;
			events.endTurn();
		},
	},
	endIf: ({ G, ctx }) => {
		const best = Math.max(...G.colonies);
		if (best >= WIN_COLONIES || ctx.turn > MAX_ROUNDS * ctx.numPlayers)
			return { winners: G.colonies.map((c, i) => (c === best ? i : -1)).filter((i) => i >= 0) };
	},
};

function legalPlacements(G) {
	const out = [];
	G.dice.forEach((v, i) => {
		if (G.placed[i]) return;
		for (const [fac, [ports, ok]] of Object.entries(FACILITIES))
			if (G.docks[fac].length < ports && ok(v)) out.push(`place ${i} ${fac}`);
	});
	return out;
}

function legalSteps(state, seat) {
	const { G, ctx } = state;
	if (ctx.gameover !== undefined || Number(ctx.currentPlayer) !== seat) return [];
	const steps = legalPlacements(G);
	if (G.ore[seat] >= 3 && G.fuel[seat] >= 1) steps.push('colonize');
	if (!legalPlacements(G).length) steps.push('end');
	return steps;
}

function parseStep(text) {
	const w = String(text).trim().toLowerCase().split(/\s+/);
	if (w[0] === 'place' && w.length === 3) return { type: 'place', args: [Number(w[1]), w[2]] };
	if ((w[0] === 'colonize' || w[0] === 'end') && w.length === 1) return { type: w[0], args: [] };
	return null;
}

const db = new FlatFile({ dir: process.env.PEER_DIR || 'peer-data', logging: false });
const master = new Master(DiceColonies, db, { send() {}, sendAll() {} });
let nextId = 1;
const tokens = new Map(); // token -> { matchID, seat }

function reply(res, status, obj, headers = {}) {
	const body = obj === undefined ? '' : JSON.stringify(obj) + '\n';
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
	res.end(body);
}

function who(req) {
	const h = req.headers.authorization || '';
	return h.startsWith('Bearer ') ? tokens.get(h.slice(7).trim()) : undefined;
}

function summary(id, state) {
	const over = state.ctx.gameover !== undefined;
	return {
		game: id,
		move_count: state._stateID,
		active_seats: over ? [] : [Number(state.ctx.currentPlayer)],
		status: over ? 'finished' : 'active',
	};
}

async function route(req, res, body) {
	const url = new URL(req.url, 'http://x');
	const parts = url.pathname.split('/').filter(Boolean); // api v1 games ID [legal|moves]
	if (parts[0] !== 'api' || parts[1] !== 'v1' || parts[2] !== 'games') return reply(res, 404, { code: 'not_found' });
	if (req.method === 'POST' && parts.length === 3) {
		const rq = JSON.parse(body || '{}');
		const n = Array.isArray(rq.players) ? rq.players.length : 2;
		const matchID = String(nextId++);
		const initialState = InitializeGame({ game: DiceColonies, numPlayers: n });
		const players = {};
		const seats = [];
		for (let i = 0; i < n; i++) {
			const token = crypto.randomBytes(16).toString('hex');
			tokens.set(token, { matchID, seat: i });
			players[i] = { id: i, name: (rq.players[i] || {}).name };
			seats.push({ seat: i, name: players[i].name, token });
		}
		await db.createMatch(matchID, {
			initialState,
			metadata: { gameName: DiceColonies.name, players, createdAt: Date.now(), updatedAt: Date.now() },
		});
		return reply(res, 201, { id: Number(matchID), game: DiceColonies.name, status: 'active', seats });
	}
	const matchID = parts[3];
	const me = who(req);
	if (!me) return reply(res, 401, { code: 'unauthorized' });
	if (me.matchID !== matchID) return reply(res, 403, { code: 'wrong_game' });
	if (req.method === 'GET' && parts.length === 4) {
		const { state } = await db.fetch(matchID, { state: true });
		return reply(res, 200, { ...summary(Number(matchID), state), view: state.G }, { ETag: `"${state._stateID}"` });
	}
	if (req.method === 'GET' && parts[4] === 'legal') {
		const { state } = await db.fetch(matchID, { state: true });
		return reply(res, 200, { move_count: state._stateID, seat: me.seat, moves: legalSteps(state, me.seat) });
	}
	if (req.method === 'POST' && parts[4] === 'moves') {
		const rq = JSON.parse(body || '{}');
		const step = parseStep((rq.moves || [])[0]);
		if (!step) return reply(res, 422, { code: 'illegal_move' });
		const m = /"?(\d+)"?/.exec(req.headers['if-match'] || '');
		const before = (await db.fetch(matchID, { state: true })).state;
		const stateID = m ? Number(m[1]) : before._stateID;
		if (stateID !== before._stateID) return reply(res, 412, { code: 'stale' });
		const action = { type: 'MAKE_MOVE', payload: { type: step.type, args: step.args, playerID: String(me.seat) } };
		const r = await master.onUpdate(action, stateID, matchID, String(me.seat));
		if (r && r.error) return reply(res, 400, { code: 'rejected', detail: r.error });
		const { state } = await db.fetch(matchID, { state: true });
		if (state._stateID === before._stateID) return reply(res, 422, { code: 'illegal_move' });
		return reply(res, 200, { ...summary(Number(matchID), state), view: state.G }, { ETag: `"${state._stateID}"` });
	}
	return reply(res, 404, { code: 'not_found' });
}

async function main() {
	await db.connect();
	const srv = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => { body += c; });
		req.on('end', () => {
			route(req, res, body).catch((e) => reply(res, 500, { code: 'internal', detail: String(e) }));
		});
	});
	srv.keepAliveTimeout = 60000;
	srv.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
		process.stdout.write(`${srv.address().port}\n`);
	});
}

main();
