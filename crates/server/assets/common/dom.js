// Small DOM helpers: an element builder that only ever inserts text, a morph that updates the
// live page from a freshly built tree (so focus, typed text, scroll and running CSS animations
// survive a re-render), and event delegation (handlers live on nodes as `__h`, so a morphed node
// always runs the newest closure).

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {import('./page-types').Child} Child */

/**
 * Builds an element. `tag` may be prefixed with `svg:` for SVG elements.
 * Props: `class` (string or array), `text` (textContent), `testid`, `on<event>` (delegated
 * handler), anything else becomes an attribute (`true` → empty attribute, null/false → none).
 * Children: nodes, strings (as text nodes), arrays, null/false (skipped).
 * @template {string} T
 * @param {T} tag
 * @param {import('./page-types').Props<import('./page-types').ElementOf<T>> | null} [props]
 * @param {...Child} children
 * @returns {import('./page-types').ElementOf<T>}
 */
export function h(tag, props, ...children) {
  const svg = tag.startsWith('svg:');
  const el = /** @type {import('./page-types').ElementOf<T>} */ (svg ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag));
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        // `delegate` calls it with the element it is set on, the one this call builds.
        (el.__h ||= {})[k.slice(2).toLowerCase()] = /** @type {(e: Event, el: Element) => void} */ (v);
      } else if (k === 'class') {
        const c = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
        if (c) el.setAttribute('class', String(c));
      } else if (k === 'text') {
        el.textContent = String(v);
      } else if (k === 'testid') {
        el.setAttribute('data-testid', String(v));
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === true) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/**
 * Text split into paragraphs on blank lines, each a <p> of text (never HTML).
 * @param {string} text
 * @param {import('./page-types').Props<HTMLParagraphElement>} [props]
 */
export function paragraphs(text, props) {
  const parts = String(text).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return parts.map((p, i) => {
    const lines = p.split('\n');
    /** @type {Child[]} */
    const kids = [];
    lines.forEach((line, j) => {
      if (j) kids.push(h('br'));
      kids.push(line);
    });
    return h('p', { ...(props || {}), 'data-key': 'p' + i }, kids);
  });
}

/**
 * @param {Node} a
 * @param {Node} b
 */
function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return /** @type {Element} */ (a).namespaceURI === /** @type {Element} */ (b).namespaceURI && /** @type {Element} */ (a).localName === /** @type {Element} */ (b).localName;
}

/** @param {Node} n */
function keyOf(n) {
  return n instanceof Element ? n.getAttribute('data-key') : null;
}

/**
 * Makes `from` (live) look like `to` (fresh). Values of form fields are not touched: the user's
 * typing is the truth for a field that already exists; its `value` attribute (the default) is
 * updated like any attribute, which also updates the field while the user has not edited it.
 */
/**
 * @param {Node} from
 * @param {Node} to of the same kind (`sameKind`)
 */
export function morph(from, to) {
  if (!(from instanceof Element) || !(to instanceof Element)) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  // A node marked data-keep with an unchanged value keeps its subtree as is.
  const keep = to.getAttribute('data-keep');
  const skip = keep !== null && keep === from.getAttribute('data-keep');
  // Attributes.
  for (const attr of Array.from(from.attributes)) {
    if (!to.hasAttribute(attr.name)) from.removeAttribute(attr.name);
  }
  for (const attr of Array.from(to.attributes)) {
    if (from.getAttribute(attr.name) !== attr.value) from.setAttribute(attr.name, attr.value);
  }
  from.__h = to.__h;
  if (skip) return;
  morphChildren(from, to);
}

/**
 * @param {Node} from
 * @param {Node} to
 */
function morphChildren(from, to) {
  /** @type {Map<string, Node>} */
  const keyed = new Map();
  for (const n of Array.from(from.childNodes)) {
    const k = keyOf(n);
    if (k !== null) keyed.set(/** @type {Element} */ (n).localName + '|' + k, n);
  }
  let ref = from.firstChild;
  for (const nk of Array.from(to.childNodes)) {
    const k = keyOf(nk);
    /** @type {Node | null} */
    let match = null;
    if (k !== null) {
      const name = /** @type {Element} */ (nk).localName + '|' + k;
      match = keyed.get(name) || null;
      if (match) keyed.delete(name);
    } else if (ref && keyOf(ref) === null && sameKind(ref, nk)) {
      match = ref;
    }
    if (match) {
      if (match !== ref) from.insertBefore(match, ref);
      else ref = ref.nextSibling;
      morph(match, nk);
    } else {
      from.insertBefore(nk, ref);
    }
  }
  while (ref) {
    const next = ref.nextSibling;
    from.removeChild(ref);
    ref = next;
  }
}

/**
 * Replaces the children of `root` with `kids`, morphing.
 * @param {Element} root
 * @param {Child} kids
 */
export function patch(root, kids) {
  const tmp = /** @type {Element} */ (root.cloneNode(false));
  append(tmp, [kids]);
  morphChildren(root, tmp);
}

/**
 * Delegates events under `root` to the `__h` handlers of the nearest ancestor of the target
 * that has one. `submit` is always prevented when handled.
 */
/**
 * @param {Element} root
 * @param {string[]} types
 */
export function delegate(root, types) {
  for (const type of types) {
    const capture = type === 'toggle' || type === 'focus' || type === 'blur';
    root.addEventListener(
      type,
      (e) => {
        let el = /** @type {Node | null} */ (e.target);
        while (el && el !== root.parentNode) {
          const fn = el instanceof Element && el.__h && el.__h[type];
          if (fn) {
            if (type === 'submit') e.preventDefault();
            fn(e, /** @type {Element} */ (el));
            return;
          }
          if (capture) return; // non-bubbling events only go to their own target
          el = el.parentNode;
        }
      },
      capture,
    );
  }
}

// ---------------------------------------------------------------- typing

/** When a key was last pressed in a text field. */
let lastKey = 0;
document.addEventListener(
  'keydown',
  (e) => {
    if (e.target instanceof Element && e.target.matches('input, textarea')) lastKey = Date.now();
  },
  true,
);

/**
 * Whether the player is typing: a text field has the focus and a key was pressed in one in the
 * last 5 s. A page that moves what they look at (bringing a result into view) waits; a field
 * merely left focused after its form was sent does not count.
 */
export function typing() {
  const active = document.activeElement;
  return !!active && active.matches('input:not([type="checkbox"]):not([type="radio"]), textarea') && Date.now() - lastKey < 5000;
}
