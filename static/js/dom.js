// Small typed helpers for looking up the elements a view has just drawn.

/**
 * The element matching `selector` below `root`; one the view drew itself, so its absence is a bug.
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {HTMLElement}
 */
export function $(root, selector) {
  const el = root.querySelector(selector);
  if (!(el instanceof HTMLElement)) throw new Error(`missing element ${selector}`);
  return el;
}

/**
 * The value of a form field.
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {string}
 */
export function valueOf(root, selector) {
  return /** @type {HTMLInputElement | HTMLSelectElement} */ ($(root, selector)).value;
}

/**
 * Whether a checkbox is ticked.
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {boolean}
 */
export function checkedOf(root, selector) {
  return /** @type {HTMLInputElement} */ ($(root, selector)).checked;
}
