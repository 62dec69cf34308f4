// The card art: a SET card as an SVG of one to four triangles, circles, squares or crosses (protocol.md's
// shapes) in red, green, purple or blue, solid, striped, open or dotted — side by side on a landscape card,
// stacked on a portrait one (a phone); MegaSet's border (single, double, dotted) as lines round the card;
// a memory card face down as a patterned back; a Matchismo card as a playing card (rank and suit, a
// patterned back when face down, faded when matched). Shape, fill and border never rely on colour, and
// each card carries its colour's letter, shown by the "Colour letters" setting.

const SVGNS = "http://www.w3.org/2000/svg";
// Blue is 4Set's fourth colour: a light sky blue, far in lightness from the dark purple, so the two stay
// apart for the colour-blind (for whom blue and purple are the same hue) as well as by the letter.
const SET_COLOURS = { R: "#d3212c", G: "#109447", P: "#6a2a95", B: "#2b8fd8" };
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

function svgElement(tag, attributes) {
  const element = document.createElementNS(SVGNS, tag);
  for (const key in attributes) element.setAttribute(key, String(attributes[key]));
  return element;
}

/** One shape centred at (x, y), scaled by `k` (four shapes share a card's width). */
function shapeAt(kind, x, y, k) {
  if (kind === "C") return svgElement("circle", { cx: x, cy: y, r: 18.5 * k });
  if (kind === "S") return svgElement("rect", { x: x - 17 * k, y: y - 17 * k, width: 34 * k, height: 34 * k, rx: 1.5 });
  if (kind === "X") {
    const a = 7 * k, b = 20 * k;  // a Greek cross: arms 14 wide, 40 across
    return svgElement("path", { d: `M${x - a} ${y - b}H${x + a}V${y - a}H${x + b}V${y + a}H${x + a}V${y + b}` +
      `H${x - a}V${y + a}H${x - b}V${y - a}H${x - a}Z` });
  }
  return svgElement("path", { d: `M${x} ${y - 22 * k}L${x + 19.5 * k} ${y + 17 * k}L${x - 19.5 * k} ${y + 17 * k}Z` });
}

// Where the shapes go along the card, by count.
const SPOTS = { 1: [75], 2: [52, 98], 3: [29, 75, 121], 4: [22, 57.3, 92.7, 128] };

/** MegaSet's border, in the card's ink (never its colour): one line, two, or a dotted one. */
function borderArt(border, portrait) {
  const [w, h] = portrait ? [100, 150] : [150, 100];
  const line = (inset, extra) => svgElement("rect", Object.assign({ x: inset, y: inset, width: w - 2 * inset,
    height: h - 2 * inset, rx: 6, fill: "none", stroke: "#3b3b3b", "stroke-width": 2.2, class: "border" }, extra));
  if (border === "W") return [line(3), line(8.5)];
  if (border === "O") return [line(4, { "stroke-dasharray": "0.1 6", "stroke-linecap": "round", "stroke-width": 3.6 })];
  return [line(4)];
}

/**
 * The SVG art of a SET card: the shapes side by side on a landscape card, stacked on a portrait one;
 * with `showBorder` (a MegaSet room) the card's border too, single included, so all three differ.
 */
function setCardArt(code, portrait, showBorder) {
  const svg = svgElement("svg", { viewBox: portrait ? "0 0 100 150" : "0 0 150 100", class: "art",
    "aria-hidden": "true" });
  if (isFaceDown(code)) {
    svg.classList.add("down");
    const [w, h] = portrait ? [100, 150] : [150, 100];
    svg.append(svgElement("rect", { x: 5, y: 5, width: w - 10, height: h - 10, rx: 7, fill: "url(#card-back)",
      stroke: "#fff", "stroke-width": 3 }));
    return svg;
  }
  const c = parseSetCard(code);
  if (!c) {
    const t = svgElement("text", { x: portrait ? 50 : 75, y: portrait ? 80 : 58, "text-anchor": "middle",
      class: "unknown" });
    t.textContent = String(code);
    svg.append(t);
    return svg;
  }
  if (showBorder) svg.append(...borderArt(c.border, portrait));
  const colour = SET_COLOURS[c.colour];
  const fill = c.fill === "F" ? colour : c.fill === "H" ? `url(#stripes-${c.colour})`
    : c.fill === "D" ? `url(#dots-${c.colour})` : "none";
  const k = c.count === 4 ? 0.72 : 1;
  // Inside MegaSet's border lines the shapes are drawn a little smaller, so none touches a line.
  const group = showBorder ? svgElement("g", { transform: portrait ? "translate(50 75) scale(.84) translate(-50 -75)"
    : "translate(75 50) scale(.84) translate(-75 -50)" }) : svg;
  if (showBorder) svg.append(group);
  for (const spot of SPOTS[c.count]) {
    const shape = portrait ? shapeAt(c.shape, 50, spot, k) : shapeAt(c.shape, spot, 51, k);
    shape.setAttribute("fill", fill);
    shape.setAttribute("stroke", colour);
    shape.setAttribute("stroke-width", "3.5");
    shape.setAttribute("stroke-linejoin", "round");
    group.append(shape);
  }
  const letter = svgElement("text", { x: showBorder ? 12 : 7, y: showBorder ? 24 : 19, class: "cb-letter", fill: colour });
  letter.textContent = c.colour;
  svg.append(letter);
  return svg;
}

/** A Matchismo board token (`10H`, `??` face down, `=JH` matched) read as rank and suit. */
function parsePlayingCard(token) {
  const text = String(token).toUpperCase();
  if (text === "??") return { down: true };
  const matched = text.startsWith("=");
  const m = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(matched ? text.slice(1) : text);
  return m && { rank: m[1], suit: m[2], matched, red: m[2] === "H" || m[2] === "D" };
}

function describePlayingCard(token) {
  const c = parsePlayingCard(token);
  if (!c) return String(token);
  if (c.down) return "face down";
  return c.rank + SUITS[c.suit] + (c.matched ? " (matched)" : "");
}

/** The SVG art of a playing card: rank and suit in the corners, a big suit in the middle. */
function playingCardArt(token) {
  const svg = svgElement("svg", { viewBox: "0 0 100 140", class: "art", "aria-hidden": "true" });
  const c = parsePlayingCard(token);
  if (c && c.down) {
    svg.append(svgElement("rect", { x: 6, y: 6, width: 88, height: 128, rx: 7, fill: "url(#card-back)",
      stroke: "#fff", "stroke-width": 3 }));
    return svg;
  }
  const colour = c && c.red ? "#c8102e" : "#1b1b1b";
  const text = (x, y, size, value, anchor) => {
    const t = svgElement("text", { x, y, "font-size": size, fill: colour, "text-anchor": anchor || "start",
      "font-weight": 700 });
    t.textContent = value;
    svg.append(t);
  };
  if (!c) { text(50, 78, 22, String(token), "middle"); return svg; }
  const suit = SUITS[c.suit] + "\uFE0E";
  text(9, 30, 26, c.rank);
  text(9, 54, 22, suit);
  text(50, 102, 58, suit, "middle");
  return svg;
}

/** A small picture of a card for the events list and the rules (MegaSet's border when it has one). */
function miniCard(code) {
  const span = document.createElement("span");
  span.className = "mini";
  span.title = describeSetCard(code);
  const c = parseSetCard(code);
  span.append(c ? setCardArt(code, false, c.border !== "S") : document.createTextNode(String(code)));
  return span;
}
