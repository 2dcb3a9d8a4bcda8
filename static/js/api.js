// The HTTP API and the player's identity, kept in localStorage so a reload is the same player.

const KEY = 'jungle.player';

export function storedPlayer() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    return null;
  }
}

export function forgetPlayer() {
  localStorage.removeItem(KEY);
}

async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export async function createPlayer(name) {
  const player = await request('POST', '/api/players', { name });
  localStorage.setItem(KEY, JSON.stringify(player));
  return player;
}

export const profile = (id) => request('GET', `/api/players/${id}`);
export const liveGames = () => request('GET', '/api/games/live');
export const leaderboard = (rules) => request('GET', `/api/leaderboard?rules=${encodeURIComponent(rules)}`);
