// Whether the tab lost focus since the player's last move: sent with the next move (`blur`),
// one of the server's fair-play signals (a player who leaves the tab before most moves may be
// asking another program). Nothing else is recorded.

let blurred = false;

const lost = () => {
  blurred = true;
};
window.addEventListener('blur', lost);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') lost();
});

/**
 * Marks a move frame, and starts counting afresh.
 * @param {{ t: string, blur?: boolean }} frame
 */
export function markMove(frame) {
  if (frame.t !== 'move') return frame;
  const marked = blurred ? { ...frame, blur: true } : frame;
  blurred = false;
  return marked;
}
