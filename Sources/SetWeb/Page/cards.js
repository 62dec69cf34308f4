// The card art: a SET card as an SVG of one to three triangles, circles or squares (protocol.md's
// shapes) in red, green or purple, solid, striped or open — side by side on a landscape card, stacked on
// a portrait one (a phone); a Matchismo card as a playing card (rank and suit, a patterned back when face
// down, faded when matched). Shape and fill never rely on colour, and each card carries its colour's
// letter, shown by the "Colour letters" setting.

const SVGNS = "http://www.w3.org/2000/svg";
const SET_COLOURS = { R: "#d3212c", G: "#109447", P: "#6a2a95" };
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

function svgElement(tag, attributes) {
  const element = document.createElementNS(SVGNS, tag);
  for (const key in attributes) element.setAttribute(key, String(attributes[key]));
  return element;
}

function shapeAt(kind, x, y) {
  if (kind === "C") return svgElement("circle", { cx: x, cy: y, r: 18.5 });
  if (kind === "S") return svgElement("rect", { x: x - 17, y: y - 17, width: 34, height: 34, rx: 1.5 });
  return svgElement("path", { d: `M${x} ${y - 22}L${x + 19.5} ${y + 17}L${x - 19.5} ${y + 17}Z` });
}

/** The SVG art of a SET card: the shapes side by side on a landscape card, stacked on a portrait one. */
function setCardArt(code, portrait) {
  const svg = svgElement("svg", { viewBox: portrait ? "0 0 100 150" : "0 0 150 100", class: "art",
    "aria-hidden": "true" });
  const c = parseSetCard(code);
  if (!c) {
    const t = svgElement("text", { x: portrait ? 50 : 75, y: portrait ? 80 : 58, "text-anchor": "middle",
      class: "unknown" });
    t.textContent = String(code);
    svg.append(t);
    return svg;
  }
  const colour = SET_COLOURS[c.colour];
  const fill = c.fill === "F" ? colour : c.fill === "H" ? `url(#stripes-${c.colour})` : "none";
  const spots = { 1: [75], 2: [52, 98], 3: [29, 75, 121] }[c.count];
  for (const spot of spots) {
    const shape = portrait ? shapeAt(c.shape, 50, spot) : shapeAt(c.shape, spot, 51);
    shape.setAttribute("fill", fill);
    shape.setAttribute("stroke", colour);
    shape.setAttribute("stroke-width", "3.5");
    shape.setAttribute("stroke-linejoin", "round");
    svg.append(shape);
  }
  const letter = svgElement("text", { x: 7, y: 19, class: "cb-letter", fill: colour });
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

/** A small picture of a card for the events list and the rules. */
function miniCard(code) {
  const span = document.createElement("span");
  span.className = "mini";
  span.title = describeSetCard(code);
  span.append(parseSetCard(code) ? setCardArt(code, false) : document.createTextNode(String(code)));
  return span;
}
