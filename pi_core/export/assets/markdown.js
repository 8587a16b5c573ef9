// Markdown of entries past the export's budget, rendered in the page when they are shown.
// Only DOM nodes and textContent are used: session text never becomes HTML, so it stays inert.
var piMarkdown = (function () {
  "use strict";
  var FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
  var HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
  var BULLET = /^ {0,3}[-*+]\s+(.*)$/;
  var ORDERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
  var QUOTE = /^ {0,3}>\s?(.*)$/;
  var RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
  var TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
  var INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|~~(?=\S)([\s\S]*?\S)~~|\*(?=[^\s*])([\s\S]*?[^\s*])\*|\b_(?=\S)([\s\S]*?\S)_\b|\[([^\]\n]+)\]\(([^()\s]+)\)/;
  var SAFE_LINK = /^(https?:|mailto:|#|[^:]*$)/i;

  function el(tag, text) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function inline(parent, text) {
    while (text) {
      var m = INLINE.exec(text);
      if (!m) { parent.appendChild(document.createTextNode(text)); return; }
      if (m.index) parent.appendChild(document.createTextNode(text.slice(0, m.index)));
      if (m[1]) parent.appendChild(el("code", m[2].replace(/^ (.*) $/, "$1")));
      else if (m[3] || m[4]) inline(parent.appendChild(el("strong")), m[3] || m[4]);
      else if (m[5]) inline(parent.appendChild(el("s")), m[5]);
      else if (m[6] || m[7]) inline(parent.appendChild(el("em")), m[6] || m[7]);
      else if (m[8]) {
        var href = m[9].replace(/[\x00-\x20\x7f]/g, "");
        if (SAFE_LINK.test(href)) {
          var link = el("a");
          link.href = href;
          link.rel = "noopener noreferrer nofollow";
          inline(link, m[8]);
          parent.appendChild(link);
        } else parent.appendChild(document.createTextNode(m[0]));
      }
      text = text.slice(m.index + m[0].length);
    }
  }

  function lines(parent, rows) {
    rows.forEach(function (row, i) {
      if (i) parent.appendChild(el("br"));
      inline(parent, row.trim());
    });
  }

  function cells(row) {
    return row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map(function (c) { return c.trim(); });
  }

  function blocks(parent, text) {
    var rows = text.replace(/\t/g, "    ").split("\n");
    var i = 0;
    while (i < rows.length) {
      var row = rows[i], m;
      if (!row.trim()) { i++; continue; }
      if ((m = FENCE.exec(row))) {
        var code = [];
        for (i++; i < rows.length && rows[i].trim().indexOf(m[1]) !== 0; i++) code.push(rows[i]);
        i++;
        var pre = el("pre"), inner = el("code", code.join("\n") + (code.length ? "\n" : ""));
        pre.className = "hl";
        if (m[2]) inner.className = "language-" + m[2];
        pre.appendChild(inner);
        parent.appendChild(pre);
      } else if ((m = HEADING.exec(row))) {
        inline(parent.appendChild(el("h" + m[1].length)), m[2]);
        i++;
      } else if (RULE.test(row)) {
        parent.appendChild(el("hr"));
        i++;
      } else if (QUOTE.test(row)) {
        var quoted = [];
        for (; i < rows.length && (m = QUOTE.exec(rows[i])); i++) quoted.push(m[1]);
        blocks(parent.appendChild(el("blockquote")), quoted.join("\n"));
      } else if (BULLET.test(row) || ORDERED.test(row)) {
        var ordered = !BULLET.test(row), pattern = ordered ? ORDERED : BULLET;
        var list = el(ordered ? "ol" : "ul");
        if (ordered && +ORDERED.exec(row)[1] !== 1) list.start = +ORDERED.exec(row)[1];
        for (; i < rows.length && (m = pattern.exec(rows[i])); i++) {
          var item = list.appendChild(el("li")), body = [ordered ? m[2] : m[1]];
          while (i + 1 < rows.length && /^\s{2,}\S/.test(rows[i + 1]) && !pattern.test(rows[i + 1])) body.push(rows[++i].trim());
          lines(item, body);
        }
        parent.appendChild(list);
      } else if (row.indexOf("|") >= 0 && i + 1 < rows.length && TABLE_RULE.test(rows[i + 1]) && rows[i + 1].indexOf("-") >= 0) {
        var table = el("table"), head = table.appendChild(el("thead")).appendChild(el("tr"));
        cells(row).forEach(function (c) { inline(head.appendChild(el("th")), c); });
        var tbody = table.appendChild(el("tbody"));
        for (i += 2; i < rows.length && rows[i].indexOf("|") >= 0 && rows[i].trim(); i++) {
          var tr = tbody.appendChild(el("tr"));
          cells(rows[i]).forEach(function (c) { inline(tr.appendChild(el("td")), c); });
        }
        parent.appendChild(table);
      } else {
        var para = [];
        for (; i < rows.length && rows[i].trim() && !FENCE.test(rows[i]) && !HEADING.test(rows[i]); i++) para.push(rows[i]);
        lines(parent.appendChild(el("p")), para);
      }
    }
  }

  // Every "as written" block under root becomes rendered markdown (once).
  return function render(root) {
    root.querySelectorAll(".as-written").forEach(function (box) {
      var rendered = document.createDocumentFragment();
      blocks(rendered, box.textContent);
      box.textContent = "";
      box.appendChild(rendered);
      box.classList.remove("as-written");
      box.classList.add("rendered-in-page");
    });
  };
})();
