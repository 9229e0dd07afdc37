// The viewer of onyx's HTML pictures (html_writer.cc puts it in the page, after the data).
//
// The library lays out every group of the model on its own (layered_layout.h) and writes the
// layouts into the page; this script draws the groups that are expanded, and when a group is
// opened or closed it places the ranks of that group's ancestors again, from the x each item
// had, as layered_layout.cc's placeRanks does (the same arithmetic, kept in step with it).
// Names reach the page as JSON strings and the drawing as textContent: nothing from the model
// is ever parsed as markup.
(function () {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const data = JSON.parse(document.getElementById('onyx-data').textContent);
  const G = data.geometry;
  // The CSS classes of the box kinds and changes, by number, and where each field of a box
  // is (html_writer.cc writes them all into the data).
  const KINDS = data.kinds;
  const CHANGES = data.changes;
  const field = (name) => {
    const at = data.boxFields.indexOf(name);
    if (at < 0) throw new Error('the page has no box field ' + name);
    return at;
  };
  const KIND = field('kind'), CHANGE = field('change'), PARENT = field('parent'), FILL = field('fill'),
    TITLE = field('title'), LINES = field('lines'), ATTRIBUTES = field('attributes'),
    NAME = field('name'), WIDTH = field('width'), HEIGHT = field('height'),
    EXPANDED = field('expanded'), OUTPUTS = field('outputs'), GROUP_TITLE = field('groupTitle'),
    DETAILS = field('details'), DOC = field('doc');
  // Layout items that are not boxes (layered_layout.h): a bend of an edge, a port in a frame.
  const BEND = data.itemCodes.bend, PORT = data.itemCodes.port;
  const boxes = data.boxes;
  const expanded = boxes.map((box) => box[EXPANDED] === 1);
  const isGroup = (b) => data.layouts[b] !== undefined;
  const placed = new Map();  // group -> its layout as placed for the current expansion
  const where = new Map();   // box -> its rectangle in the drawing, for search

  // ---- placement (layered_layout.cc: placeRank, placeRanks, spreadPorts) ----------------

  function sizeOf(b) {
    if (isGroup(b) && expanded[b]) {
      const layout = layoutOf(b);
      return {
        width: Math.max(layout.width + 2 * G.groupPadding,
          Array.from(boxes[b][GROUP_TITLE]).length * G.charWidth + 2 * G.padding),
        height: layout.height + G.groupHeader + 2 * G.groupPadding,
      };
    }
    return { width: boxes[b][WIDTH], height: boxes[b][HEIGHT] };
  }

  function placeRank(rank, items) {
    const n = rank.length;
    if (n === 0) return;
    const offset = new Array(n).fill(0);
    for (let i = 1; i < n; ++i) {
      const left = items[rank[i - 1]], right = items[rank[i]];
      const gap = left.box === BEND && right.box === BEND ? G.bendWidth : G.itemGap;
      offset[i] = offset[i - 1] + (left.width + right.width) / 2 + gap;
    }
    const mean = [], size = [];
    for (let i = 0; i < n; ++i) {
      let target = items[rank[i]].x - offset[i];
      let count = 1;
      while (mean.length > 0 && mean[mean.length - 1] > target) {
        const m = mean.pop(), s = size.pop();
        target = (target * count + m * s) / (count + s);
        count += s;
      }
      mean.push(target);
      size.push(count);
    }
    let i = 0;
    for (let block = 0; block < mean.length; ++block) {
      for (let k = 0; k < size[block]; ++k, ++i) items[rank[i]].x = mean[block] + offset[i];
    }
  }

  function spreadPorts(layout) {
    const bottom = layout.items.map(() => []);
    const top = layout.items.map(() => []);
    for (const route of layout.routes) {
      const upper = route.reversed ? route.to : route.start;
      const lower = route.reversed ? route.from : route.to;
      const bends = route.bends;
      const belowUpper = bends.length === 0 ? lower : (route.reversed ? bends[bends.length - 1] : bends[0]);
      const aboveLower = bends.length === 0 ? upper : (route.reversed ? bends[0] : bends[bends.length - 1]);
      bottom[upper].push({ towards: layout.items[belowUpper].x, value: route.value, route, end: route.reversed ? 'endDx' : 'startDx' });
      top[lower].push({ towards: layout.items[aboveLower].x, value: -1, route, end: route.reversed ? 'startDx' : 'endDx' });
    }
    const spread = (ends, width, byValue) => {
      if (ends.length === 0) return;
      ends.sort((a, b) => a.towards - b.towards);  // stable, as std::stable_sort
      const port = [], by = new Map();
      let ports = 0;
      for (const end of ends) {
        if (!byValue) { port.push(ports++); continue; }
        if (!by.has(end.value)) by.set(end.value, ports++);
        port.push(by.get(end.value));
      }
      const usable = Math.max(0, width - 2 * G.padding);
      ends.forEach((end, i) => { end.route[end.end] = -usable / 2 + usable * (port[i] + 0.5) / ports; });
    };
    layout.items.forEach((item, i) => {
      spread(bottom[i], item.width, true);
      spread(top[i], item.width, false);
    });
  }

  function placeRanks(layout) {
    for (const rank of layout.ranks) placeRank(rank, layout.items);
    let left = 0, right = 0, any = false;
    for (const item of layout.items) {
      const l = item.x - item.width / 2, r = item.x + item.width / 2;
      left = any ? Math.min(left, l) : l;
      right = any ? Math.max(right, r) : r;
      any = true;
    }
    for (const item of layout.items) item.x -= left;
    layout.width = any ? right - left : 0;
    let y = 0;
    for (const rank of layout.ranks) {
      let tallest = 0;
      for (const i of rank) if (layout.items[i].box >= 0) tallest = Math.max(tallest, layout.items[i].height);
      for (const i of rank) {
        const item = layout.items[i];
        if (item.box < 0) item.height = tallest;
        item.y = y + (tallest - item.height) / 2;
      }
      y += tallest + G.rankGap;
    }
    layout.height = layout.ranks.length === 0 ? 0 : y - G.rankGap;
    spreadPorts(layout);
  }

  // The layout of group `g` for the current expansion: the library's x as what each item
  // wants, the sizes of its children as they are now.
  function layoutOf(g) {
    if (placed.has(g)) return placed.get(g);
    const source = data.layouts[g];
    const items = source.items.map(([box, rank, x]) => {
      const size = box < 0 ? { width: G.bendWidth, height: 0 } : sizeOf(box);
      return { box, rank, x, y: 0, width: size.width, height: size.height };
    });
    const routes = source.routes.map(([from, to, bends, value, count, reversed, start]) =>
      ({ from, to, bends, value, count, reversed: reversed === 1, start, startDx: 0, endDx: 0 }));
    const layout = { items, ranks: source.ranks, routes, width: 0, height: 0 };
    placeRanks(layout);
    placed.set(g, layout);
    return layout;
  }

  function forget(b) {
    for (let at = b; at >= 0; at = boxes[at][PARENT]) placed.delete(at);
  }

  // ---- drawing (svg_writer.cc draws the same) -------------------------------------------

  function element(name, attributes, parent) {
    const e = document.createElementNS(SVG, name);
    for (const key in attributes) e.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(content, x, y, className, parent) {
    const t = element('text', { x: x.toFixed(1), y: y.toFixed(1) }, parent);
    if (className) t.setAttribute('class', className);
    t.textContent = content;
    return t;
  }

  function tooltip(b, parent) {
    const box = boxes[b];
    const lines = [box[TITLE] + (box[NAME] ? ' ' + box[NAME] : '')].concat(box[ATTRIBUTES], box[DETAILS]);
    if (box[DOC]) lines.push(box[DOC].length > 400 ? box[DOC].slice(0, 400) + '\u2026' : box[DOC]);
    element('title', {}, parent).textContent = lines.join('\n');
  }

  function paintBox(b, left, top, width, height, parent) {
    const box = boxes[b];
    const open = isGroup(b) && expanded[b];
    const collapsed = isGroup(b) && !open;
    const g = element('g', { class: (open ? 'group ' : 'box ') + KINDS[box[KIND]] + (collapsed ? ' collapsed' : '') + CHANGES[box[CHANGE]] }, parent);
    g.dataset.box = b;
    where.set(b, { left, top, width, height });
    tooltip(b, g);
    if (open) {
      element('rect', { x: left.toFixed(1), y: top.toFixed(1), width: width.toFixed(1), height: height.toFixed(1), rx: 6 }, g);
      const title = text(box[GROUP_TITLE], left + G.padding, top + G.lineHeight, 'title toggle', g);
      title.addEventListener('click', (event) => { event.stopPropagation(); toggle(b); });
      paintContent(b, left + G.groupPadding, top + G.groupHeader + G.groupPadding, g);
      return;
    }
    if (isGroup(b)) {
      g.dataset.collapsed = '1';
      element('rect', { class: 'under', x: (left + 3).toFixed(1), y: (top + 3).toFixed(1), width: width.toFixed(1), height: height.toFixed(1), rx: 4 }, g);
    }
    const rect = element('rect', { x: left.toFixed(1), y: top.toFixed(1), width: width.toFixed(1), height: height.toFixed(1), rx: 4 }, g);
    if (box[FILL]) rect.style.fill = box[FILL];  // a measure's colour (onyx draw --cost)
    let y = top + G.padding + G.lineHeight - 3;
    text(box[TITLE], left + G.padding, y, 'title', g);
    for (const line of box[LINES]) {
      y += G.lineHeight;
      text(line, left + G.padding, y, '', g);
    }
    g.addEventListener('click', (event) => {
      event.stopPropagation();
      if (isGroup(b)) toggle(b); else show(b);
    });
  }

  function paintRoute(layout, route, left, top, labelled, parent) {
    const from = layout.items[route.start], to = layout.items[route.to];
    const upper = route.reversed ? to : from, lower = route.reversed ? from : to;
    const upperDx = route.reversed ? route.endDx : route.startDx;
    const lowerDx = route.reversed ? route.startDx : route.endDx;
    // A port stands for the group's frame: the edge runs from its top or to its bottom.
    const start = upper.box === PORT ? top - G.groupHeader - G.groupPadding : top + upper.y + upper.height;
    const end = lower.box === PORT ? top + layout.height + G.groupPadding : top + lower.y;
    const points = [[left + upper.x + upperDx, start]];
    const straight = [];
    const bends = route.reversed ? route.bends.slice().reverse() : route.bends;
    for (const bend of bends) {
      const item = layout.items[bend];
      straight.push(false);
      points.push([left + item.x, top + item.y]);
      straight.push(true);
      points.push([left + item.x, top + item.y + item.height]);
    }
    straight.push(false);
    points.push([left + lower.x + lowerDx, end]);
    if (route.reversed) { points.reverse(); straight.reverse(); }
    let d = 'M' + points[0][0].toFixed(1) + ',' + points[0][1].toFixed(1);
    for (let i = 0; i + 1 < points.length; ++i) {
      const [ax, ay] = points[i], [bx, by] = points[i + 1];
      if (straight[i]) {
        d += ' L' + bx.toFixed(1) + ',' + by.toFixed(1);
      } else {
        const middle = ((ay + by) / 2).toFixed(1);
        d += ' C' + ax.toFixed(1) + ',' + middle + ' ' + bx.toFixed(1) + ',' + middle + ' ' + bx.toFixed(1) + ',' + by.toFixed(1);
      }
    }
    const path = element('path', { class: 'edge' + (route.reversed ? ' reversed' : ''), 'marker-end': 'url(#arrow)', d }, parent);
    const [name, type] = data.values[route.value];
    element('title', {}, path).textContent = name + (route.count > 1 ? ' and ' + (route.count - 1) + ' more' : '');
    const key = route.from + ':' + type;  // one label per type leaving a box (svg_writer.cc)
    if (!type || route.start !== route.from || labelled.has(key)) return;
    labelled.add(key);
    const x = left + from.x + route.startDx + 3;
    const y = route.reversed ? top + from.y - 4 : top + from.y + from.height + 11;
    text(type, x, y, 'label', parent);
  }

  function paintContent(g, left, top, parent) {
    const layout = layoutOf(g);
    for (const item of layout.items) {
      if (item.box >= 0) paintBox(item.box, left + item.x - item.width / 2, top + item.y, item.width, item.height, parent);
    }
    const labelled = new Set();
    for (const route of layout.routes) paintRoute(layout, route, left, top, labelled, parent);
  }

  // ---- the page: pan, zoom, expand, search ----------------------------------------------

  const svg = document.getElementById('picture');
  const viewport = document.getElementById('viewport');
  const panel = document.getElementById('panel');
  const view = { x: 0, y: 0, scale: 1 };

  function applyView() {
    viewport.setAttribute('transform', 'translate(' + view.x + ',' + view.y + ') scale(' + view.scale + ')');
  }

  function render() {
    while (viewport.firstChild) viewport.removeChild(viewport.firstChild);
    where.clear();
    const heading = text(data.title + ' \u2014 ' + data.nodes + (data.nodes === 1 ? ' node' : ' nodes'), G.margin, G.margin + 12, 'heading', viewport);
    heading.setAttribute('id', 'heading');
    if (boxes.length > 0) paintContent(0, G.margin, G.margin + G.heading, viewport);
    document.getElementById('shown').textContent = where.size + ' boxes shown';
  }

  function toggle(b) {
    expanded[b] = !expanded[b];
    forget(b);
    render();
  }

  // The whole picture in the window; with `widthOnly`, as wide as the window allows and from
  // the top (a long chain of layers stays readable, and the rest is a drag away).
  function fit(widthOnly) {
    const root = boxes.length > 0 ? layoutOf(0) : { width: 0, height: 0 };
    const width = root.width + 2 * G.margin, height = root.height + 2 * G.margin + G.heading;
    const area = svg.getBoundingClientRect();
    view.scale = Math.min(1, area.width / Math.max(width, 1));
    if (widthOnly !== true) view.scale = Math.min(view.scale, area.height / Math.max(height, 1));
    view.x = (area.width - width * view.scale) / 2;
    view.y = 0;
    applyView();
  }

  function show(b) {
    const box = boxes[b];
    panel.replaceChildren();
    const heading = document.createElement('h2');
    heading.textContent = box[TITLE];
    panel.appendChild(heading);
    const list = document.createElement('dl');
    const add = (term, values) => {
      if (values.length === 0) return;
      const dt = document.createElement('dt');
      dt.textContent = term;
      list.appendChild(dt);
      for (const value of values) {
        const dd = document.createElement('dd');
        dd.textContent = value;
        list.appendChild(dd);
      }
    };
    add('name', box[NAME] ? [box[NAME]] : []);
    add('attributes', box[ATTRIBUTES]);
    add(KINDS[box[KIND]] === 'node' ? 'weights' : 'type', box[DETAILS]);
    add('output types', box[OUTPUTS]);
    add('doc', box[DOC] ? [box[DOC]] : []);
    panel.appendChild(list);
  }

  function reveal(b) {
    for (let at = boxes[b][PARENT]; at >= 0; at = boxes[at][PARENT]) {
      if (!expanded[at]) { expanded[at] = true; forget(at); }
    }
    render();
    const rectangle = where.get(b);
    if (!rectangle) return;
    const area = svg.getBoundingClientRect();
    view.scale = Math.max(view.scale, 0.8);
    view.x = area.width / 2 - (rectangle.left + rectangle.width / 2) * view.scale;
    view.y = area.height / 2 - (rectangle.top + rectangle.height / 2) * view.scale;
    applyView();
    for (const e of viewport.querySelectorAll('.found')) e.classList.remove('found');
    const shown = viewport.querySelector('[data-box="' + b + '"]');
    if (shown) shown.classList.add('found');
    show(b);
  }

  function search(query) {
    const results = document.getElementById('results');
    results.replaceChildren();
    const needle = query.trim().toLowerCase();
    if (needle === '') return;
    let found = 0;
    for (let b = 0; b < boxes.length && found < 200; ++b) {
      const box = boxes[b];
      const haystack = [box[TITLE], box[NAME]].concat(box[DETAILS], box[OUTPUTS]).join('\n').toLowerCase();
      if (!haystack.includes(needle)) continue;
      ++found;
      const item = document.createElement('li');
      item.textContent = box[TITLE] + (box[NAME] ? '  ' + box[NAME] : '');
      item.addEventListener('click', () => reveal(b));
      results.appendChild(item);
    }
    if (found === 0) {
      const item = document.createElement('li');
      item.textContent = 'nothing matches';
      results.appendChild(item);
    }
  }

  let drag = null;
  svg.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX - view.x, y: event.clientY - view.y };
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener('pointermove', (event) => {
    if (!drag) return;
    view.x = event.clientX - drag.x;
    view.y = event.clientY - drag.y;
    applyView();
  });
  svg.addEventListener('pointerup', () => { drag = null; });
  svg.addEventListener('wheel', (event) => {
    event.preventDefault();
    const area = svg.getBoundingClientRect();
    const cx = event.clientX - area.left, cy = event.clientY - area.top;
    const factor = Math.exp(-event.deltaY * 0.0015);
    const scale = Math.min(4, Math.max(0.02, view.scale * factor));
    view.x = cx - (cx - view.x) * (scale / view.scale);
    view.y = cy - (cy - view.y) * (scale / view.scale);
    view.scale = scale;
    applyView();
  }, { passive: false });
  document.getElementById('search').addEventListener('input', (event) => search(event.target.value));
  document.getElementById('fit').addEventListener('click', fit);
  // Opens every group shown collapsed: one level more (all of a 100,000-node model at once
  // would be a 100,000-box drawing).
  document.getElementById('open-level').addEventListener('click', () => {
    for (const b of where.keys()) if (isGroup(b) && !expanded[b]) expanded[b] = true;
    placed.clear();
    render();
    fit(true);
  });
  document.getElementById('collapse-all').addEventListener('click', () => {
    boxes.forEach((box, b) => { if (b > 0 && isGroup(b)) expanded[b] = false; });
    placed.clear();
    render();
    fit(true);
  });

  render();
  fit(true);
})();
