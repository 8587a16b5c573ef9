// The exported session page: the tree sidebar (search, filters, a virtual list), the path to the
// selected entry, deep links (#entryId or ?leafId=&targetId=), toggles and the JSONL download.
// Entries' HTML was rendered by pi within the export's budget; past it, entries.js and markdown.js
// render in the page.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("session-tree").textContent);
  var rows = data.rows;
  var byId = new Map();
  var children = new Map();
  rows.forEach(function (row) {
    byId.set(row.id, row);
    var key = row.parent || "";
    if (!children.has(key)) children.set(key, []);
    children.get(key).push(row.id);
  });
  var templates = new Map();
  document.querySelectorAll("#entries > template").forEach(function (t) {
    templates.set(t.getAttribute("data-id"), t);
  });
  // Entries past the export's budget come as their session lines (entries.js renders them).
  var lines = null;
  function lineEntry(number) {
    if (lines === null) lines = document.getElementById("session-lines").textContent.split("\n");
    try { return JSON.parse(lines[number]); } catch (e) { return null; }
  }
  function findResult(callId) {
    var number = data.results && Object.prototype.hasOwnProperty.call(data.results, callId) ? data.results[callId] : null;
    var entry = number === null ? null : lineEntry(number);
    return entry && entry.message && typeof entry.message === "object" ? entry.message : null;
  }
  function fromLine(id) {
    return !templates.has(id) && byId.has(id) && typeof byId.get(id).line === "number";
  }
  // Templates for the given entries that come as lines: their HTML is parsed in one pass.
  function prepare(ids) {
    var missing = ids.filter(fromLine);
    if (!missing.length) return;
    var box = document.createElement("template");
    box.innerHTML = missing.map(function (id) {
      var entry = lineEntry(byId.get(id).line);
      var html = entry && typeof entry === "object" ? piEntries.render(entry, findResult, data.home || "") : "";
      return "<template>" + html + "</template>";
    }).join("");
    var made = box.content.children;
    missing.forEach(function (id, i) { templates.set(id, made[i]); });
  }
  function templateOf(id) {
    if (fromLine(id)) prepare([id]);
    return templates.get(id);
  }
  var searchText = new Map();
  var state = { filter: "default", query: "", leaf: data.leafId, target: null, visible: [] };
  var ROW_HEIGHT = 22;
  var SETTINGS = { label: 1, custom: 1, model: 1, thinking: 1, info: 1 };
  var treeBox = document.getElementById("tree");
  var spacer = document.createElement("div");
  spacer.className = "tree-spacer";
  treeBox.appendChild(spacer);

  function pathTo(id) {
    var path = [];
    var seen = new Set();
    while (id && byId.has(id) && !seen.has(id)) {
      seen.add(id);
      path.push(id);
      id = byId.get(id).parent;
    }
    return path.reverse();
  }

  function newestLeafUnder(id) {
    // As pi does: follow the newest child at each level.
    var seen = new Set();
    while (children.has(id) && !seen.has(id)) {
      seen.add(id);
      id = byId.get(id).newest || children.get(id)[0];
    }
    return id;
  }

  function textOf(row) {
    var text = searchText.get(row.id);
    if (text === undefined) {
      var t = templateOf(row.id);
      text = (row.text + " " + (row.label || "") + " " + (t ? t.content.textContent : "")).toLowerCase();
      searchText.set(row.id, text);
    }
    return text;
  }

  function passes(row) {
    if (row.id === state.leaf) return true;
    if (row.kind === "tool-call") return false;
    var ok;
    switch (state.filter) {
      case "user-only": ok = row.kind === "user"; break;
      case "no-tools": ok = !SETTINGS[row.kind] && row.kind !== "tool"; break;
      case "labeled-only": ok = !!row.label; break;
      case "all": ok = true; break;
      default: ok = !SETTINGS[row.kind];
    }
    if (!ok) return false;
    if (state.query) {
      var tokens = state.query.split(/\s+/).filter(Boolean);
      var text = textOf(row);
      for (var i = 0; i < tokens.length; i++) if (text.indexOf(tokens[i]) < 0) return false;
    }
    return true;
  }

  var everyTemplate = false;
  function refreshTree() {
    if (state.query && !everyTemplate) {  // search reads every entry's text: parse in batches
      everyTemplate = true;
      for (var i = 0; i < rows.length; i += 2000) {
        prepare(rows.slice(i, i + 2000).map(function (row) { return row.id; }));
      }
    }
    state.visible = rows.filter(passes);
    spacer.style.height = state.visible.length * ROW_HEIGHT + "px";
    document.getElementById("tree-status").textContent =
      state.visible.length + " / " + rows.length + " entries";
    drawRows();
  }

  function drawRows() {
    var active = new Set(pathTo(state.leaf));
    var first = Math.max(0, Math.floor(treeBox.scrollTop / ROW_HEIGHT) - 10);
    var last = Math.min(state.visible.length, first + Math.ceil(treeBox.clientHeight / ROW_HEIGHT) + 20);
    treeBox.querySelectorAll(".tree-row").forEach(function (el) { el.remove(); });
    var fragment = document.createDocumentFragment();
    for (var i = first; i < last; i++) {
      var row = state.visible[i];
      var el = document.createElement("div");
      el.className = "tree-row kind-" + row.kind + (active.has(row.id) ? " in-path" : "") +
        (row.id === state.target ? " selected" : "");
      el.setAttribute("role", "treeitem");
      el.setAttribute("data-id", row.id);
      el.style.top = i * ROW_HEIGHT + "px";
      el.style.paddingLeft = 6 + row.depth * 12 + "px";
      var mark = document.createElement("span");
      mark.className = "tree-mark";
      mark.textContent = (row.branch ? row.branch + "─ " : "") + (active.has(row.id) ? "• " : "");
      el.appendChild(mark);
      if (row.label) {
        var label = document.createElement("span");
        label.className = "tree-label";
        label.textContent = "[" + row.label + "] ";
        el.appendChild(label);
      }
      el.appendChild(document.createTextNode(row.text));
      el.title = row.text;
      fragment.appendChild(el);
    }
    treeBox.appendChild(fragment);
  }

  function showPath(leaf) {
    var box = document.getElementById("messages");
    box.textContent = "";
    var fragment = document.createDocumentFragment();
    var path = pathTo(leaf);
    prepare(path);
    path.forEach(function (id) {
      var t = templateOf(id);
      if (t && t.content.firstElementChild) fragment.appendChild(t.content.cloneNode(true));
    });
    piMarkdown(fragment);
    box.appendChild(fragment);
  }

  function navigate(targetId, updateUrl) {
    if (!byId.has(targetId)) return false;
    var inPath = pathTo(state.leaf).indexOf(targetId) >= 0;
    var leaf = inPath ? state.leaf : newestLeafUnder(targetId);
    var redraw = leaf !== state.leaf || !document.getElementById("messages").firstChild;
    state.leaf = leaf;
    state.target = targetId;
    if (redraw) showPath(leaf);
    document.querySelectorAll(".entry.highlight").forEach(function (el) { el.classList.remove("highlight"); });
    var shown = pathTo(targetId).reverse().map(function (id) {
      return document.getElementById("entry-" + id);
    }).filter(Boolean)[0];
    if (shown) {
      shown.classList.add("highlight");
      shown.scrollIntoView({ block: "start" });
    }
    refreshTree();
    var index = state.visible.findIndex(function (row) { return row.id === targetId; });
    if (index >= 0) {
      var top = index * ROW_HEIGHT;
      if (top < treeBox.scrollTop || top > treeBox.scrollTop + treeBox.clientHeight - ROW_HEIGHT) {
        treeBox.scrollTop = Math.max(0, top - treeBox.clientHeight / 2);
        drawRows();
      }
    }
    if (updateUrl) history.replaceState(null, "", "#" + encodeURIComponent(targetId));
    document.body.setAttribute("data-selected", targetId);
    return true;
  }

  function fromUrl() {
    var params = new URLSearchParams(location.search);
    var target = params.get("targetId");
    var leaf = params.get("leafId");
    if (location.hash.length > 1) {
      try { target = decodeURIComponent(location.hash.slice(1)); } catch (e) { target = null; }
    }
    if (leaf && byId.has(leaf)) state.leaf = leaf;
    return target && byId.has(target) ? target : null;
  }

  function saveBlob(blob, name) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  function downloadJsonl() {
    var packed64 = document.getElementById("session-jsonl").textContent;
    if (!packed64) {  // the session lines are the file, with each "<" escaped (embed.py)
      var text = document.getElementById("session-lines").textContent.split("\\u003C").join("<");
      saveBlob(new Blob([text], { type: "application/x-ndjson" }), data.fileName || "session.jsonl");
      return;
    }
    var binary = atob(packed64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var packed = new Blob([bytes]);
    var name = data.fileName || "session.jsonl";
    if (typeof DecompressionStream !== "function") {
      saveBlob(packed, name + ".gz");
      return;
    }
    var stream = packed.stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).blob().then(function (blob) {
      saveBlob(new Blob([blob], { type: "application/x-ndjson" }), name);
    });
  }

  function toggleThinking() { document.body.classList.toggle("hide-thinking"); }

  function toggleTools() {
    var outputs = document.querySelectorAll("#messages .expandable");
    var open = !Array.prototype.some.call(outputs, function (d) { return d.classList.contains("expanded"); });
    outputs.forEach(function (d) { d.classList.toggle("expanded", open); });
  }

  document.getElementById("messages").addEventListener("click", function (event) {
    var box = event.target.closest(".expandable");
    if (box && !String(window.getSelection())) box.classList.toggle("expanded");
  });
  treeBox.addEventListener("scroll", function () { requestAnimationFrame(drawRows); });
  treeBox.addEventListener("click", function (event) {
    var row = event.target.closest(".tree-row");
    if (row) navigate(row.getAttribute("data-id"), true);
  });
  document.querySelectorAll(".filter-btn").forEach(function (button) {
    button.addEventListener("click", function () {
      document.querySelectorAll(".filter-btn").forEach(function (b) { b.classList.remove("active"); });
      button.classList.add("active");
      state.filter = button.getAttribute("data-filter");
      refreshTree();
    });
  });
  var search = document.getElementById("tree-search");
  var pending = null;
  search.addEventListener("input", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      state.query = search.value.trim().toLowerCase();
      treeBox.scrollTop = 0;
      refreshTree();
    }, 120);
  });
  document.getElementById("toggle-thinking").addEventListener("click", toggleThinking);
  document.getElementById("toggle-tools").addEventListener("click", toggleTools);
  document.getElementById("download-jsonl").addEventListener("click", downloadJsonl);
  document.addEventListener("keydown", function (event) {
    var typing = event.target.closest && event.target.closest("input, textarea");
    if (event.key === "Escape") {
      search.value = "";
      state.query = "";
      if (state.leaf) navigate(state.leaf, true);
      return;
    }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "t" || event.key === "T") toggleThinking();
    if (event.key === "o" || event.key === "O") toggleTools();
  });
  window.addEventListener("hashchange", function () {
    var target = fromUrl();
    if (target) navigate(target, false);
  });
  window.addEventListener("resize", drawRows);

  var initial = fromUrl();
  if (initial) {
    navigate(initial, false);
  } else if (state.leaf) {
    showPath(state.leaf);
    refreshTree();
  } else {
    refreshTree();
  }
  document.body.setAttribute("data-ready", "1");
})();
