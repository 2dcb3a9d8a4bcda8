// Short synthesized sounds (no audio files), with a mute switch remembered across visits.

let muted = localStorage.getItem('jungle.muted') === '1';
let context = null;

const TONES = {
  move: [[520, 0.05]],
  capture: [[330, 0.06], [220, 0.08]],
  den: [[523, 0.08], [659, 0.08], [784, 0.14]],
  start: [[392, 0.07], [523, 0.1]],
  low: [[880, 0.05]],
  offer: [[660, 0.08], [880, 0.08]],
};

export function isMuted() { return muted; }

export function setMuted(value) {
  muted = value;
  localStorage.setItem('jungle.muted', value ? '1' : '0');
}

export function play(name) {
  if (muted || !TONES[name]) return;
  try {
    context ??= new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of TONES[name]) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    // No audio available: silence is fine.
  }
}
