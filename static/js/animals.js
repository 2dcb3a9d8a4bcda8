// The animals as pictures, drawn for this project: simple shapes in one ink (the side's colour)
// with cut-outs in the piece's own background, so that each reads at 40 px and prints the same
// on every device. Each is told apart by its outline, not by detail: the elephant's ears and
// trunk, the lion's mane, the tiger's stripes, the leopard's spots, the wolf's tall ears and long muzzle, the dog's
// hanging ears, the cat's whiskers, the rat's tail. Dens and traps have symbols of their own.

/** A mane of `points` tufts round (cx, cy). */
function star(cx, cy, outer, inner, points) {
  const corners = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    corners.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `<path d="M${corners.join(' L')}Z"/>`;
}

const TIGER_STRIPES = 'M32 16v9M25 18l2.5 6M39 18l-2.5 6M11 32h8M12 39.5h7M53 32h-8M52 39.5h-7';

/** Inner SVG of each animal on a 64 × 64 grid; `cut` is the piece's background, `line` an inked stroke. */
export const PICTURES = {
  elephant:
    '<ellipse cx="13" cy="27" rx="12" ry="15"/><ellipse cx="51" cy="27" rx="12" ry="15"/>' +
    '<circle cx="32" cy="25" r="15" class="rim"/>' +
    '<path d="M25 32Q25 49 31 56Q35 60 41 56L38 52Q34 53 33 47Q33 40 39 32Z"/>' +
    '<circle class="cut" cx="25" cy="22" r="2.6"/><circle class="cut" cx="39" cy="22" r="2.6"/>' +
    '<path class="cut-line" d="M23 35q-4 6 1 10M41 35q4 6-1 10"/>',
  lion:
    star(32, 33, 30, 22, 14) +
    '<circle class="cut" cx="32" cy="34" r="16"/>' +
    '<circle cx="26" cy="31" r="2.6"/><circle cx="38" cy="31" r="2.6"/>' +
    '<path d="M28.5 37h7l-3.5 4z"/><path class="line" d="M32 41q-2 4-6 3M32 41q2 4 6 3"/>',
  tiger:
    '<circle cx="16" cy="17" r="7"/><circle cx="48" cy="17" r="7"/>' +
    '<ellipse cx="32" cy="35" rx="22" ry="20"/>' +
    `<path class="cut-line" d="${TIGER_STRIPES}"/>` +
    '<ellipse class="cut" cx="32" cy="44" rx="9" ry="7"/>' +
    '<circle class="cut" cx="24.5" cy="31" r="3.4"/><circle class="cut" cx="39.5" cy="31" r="3.4"/>' +
    '<path d="M28.5 39.5h7l-3.5 4z"/>',
  leopard:
    '<circle cx="16" cy="18" r="6.5"/><circle cx="48" cy="18" r="6.5"/>' +
    '<ellipse class="cut rim-ink" cx="32" cy="35" rx="21" ry="19"/>' +
    '<circle cx="22" cy="23" r="2.6"/><circle cx="32" cy="20" r="2.6"/><circle cx="42" cy="23" r="2.6"/>' +
    '<circle cx="16" cy="35" r="2.6"/><circle cx="48" cy="35" r="2.6"/><circle cx="20" cy="45" r="2.4"/>' +
    '<circle cx="44" cy="45" r="2.4"/><circle cx="32" cy="27" r="1.8"/>' +
    '<circle cx="25.5" cy="33" r="2.8"/><circle cx="38.5" cy="33" r="2.8"/>' +
    '<path d="M28.5 40h7l-3.5 4z"/><path class="line" d="M32 44q-2 4-6 3M32 44q2 4 6 3"/>',
  wolf:
    '<path d="M32 61L24 47L13 43L17 39L7 32L14 28L12 3L26 17L38 17L52 3L50 28L57 32L47 39L51 43L40 47Z"/>' +
    '<path class="cut" d="M16 11L17 22L23 18ZM48 11L47 22L41 18ZM27 37L32 56L37 37Z"/>' +
    '<path class="cut" d="M19 29L28 32.5L21 34ZM45 29L36 32.5L43 34Z"/><ellipse cx="32" cy="54" rx="4" ry="3"/>',
  dog:
    '<ellipse class="cut rim-ink" cx="32" cy="33" rx="15" ry="18"/>' +
    '<ellipse cx="15" cy="31" rx="7.5" ry="16" transform="rotate(18 15 31)"/>' +
    '<ellipse cx="49" cy="31" rx="7.5" ry="16" transform="rotate(-18 49 31)"/>' +
    '<circle cx="26" cy="28" r="2.8"/><circle cx="38" cy="28" r="2.8"/>' +
    '<ellipse cx="32" cy="39" rx="5.5" ry="4"/><path class="line" d="M32 43v3q-3 4-7 2M32 46q3 4 7 2"/>',
  cat:
    '<path d="M15 33L14 8L31 21ZM49 33L50 8L33 21Z"/><circle cx="32" cy="37" r="18"/>' +
    '<path class="cut" d="M18 25L17.5 14L25 20ZM46 25L46.5 14L39 20Z"/>' +
    '<ellipse class="cut" cx="24.5" cy="34" rx="4" ry="3"/><ellipse class="cut" cx="39.5" cy="34" rx="4" ry="3"/>' +
    '<path d="M24 31.5v5M39.5 31.5v5" class="line thin"/>' +
    '<path class="cut" d="M29.5 41h5l-2.5 3z"/>' +
    '<path class="line" d="M14 41L1 37M14 45L1 47M50 41L63 37M50 45L63 47"/>',
  rat:
    '<ellipse cx="37" cy="38" rx="17" ry="12"/><path d="M25 31L4 41L25 48Z"/>' +
    '<circle cx="24" cy="28" r="7"/><circle class="cut" cx="24" cy="28" r="3.4"/>' +
    '<circle class="cut" cx="15" cy="39" r="1.9"/>' +
    '<path class="line" d="M53 36C63 32 62 20 54 18C48 17 47 12 50 7"/>' +
    '<path class="line thin" d="M8 42L1 39M8 43L1 46"/>' +
    '<path d="M28 49h5v4h-5zM42 48h5v4h-5z"/>',
};

/** The den: a cave's mouth under a hill. */
export const DEN_PICTURE = '<path d="M4 56Q10 14 32 10Q54 14 60 56ZM20 56Q21 32 32 30Q43 32 44 56Z"/>';

/** The trap: a pit's stakes. */
export const TRAP_PICTURE =
  '<path d="M6 54h52" class="line"/><path d="M10 52L16 26L22 52ZM26 52L32 18L38 52ZM42 52L48 26L54 52Z"/>';

/**
 * An inline SVG of `inner`, hidden from screen readers (the square names what stands on it).
 * @param {string} inner
 * @param {string} className
 */
export function svg(inner, className) {
  return `<svg class="${className}" viewBox="0 0 64 64" aria-hidden="true" focusable="false">${inner}</svg>`;
}
