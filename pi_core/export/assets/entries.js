// Entries past the export's budget, rendered in the page from their session lines when shown.
// The same HTML as pi_core/export/entries.py and tools.py write past their markdown and code
// budgets: every session string goes through esc() (or into an "as written" block that
// markdown.js renders with text nodes), so session text never becomes markup.
var piEntries = (function () {
  "use strict";
  var MARKDOWN_SYNTAX = /[\\`*_\[\]<&|~]|^\s*(?:[-+>#=]|\d+[.)])|^ {4}|^\t/m;
  var SKILL = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?\n?$/;
  var INVALID = '<span class="tool-error">[invalid arg]</span>';
  var MIMES = { "image/png": 1, "image/jpeg": 1, "image/gif": 1, "image/webp": 1 };
  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

  function esc(text) { return String(text).replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }
  function str(value, fallback) { return typeof value === "string" ? value : (fallback || ""); }
  function isObject(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }
  function isInt(value) { return typeof value === "number" && Number.isInteger(value); }
  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function strip(text) { return text.replace(/^\s+|\s+$/g, ""); }
  function count(text, part) { return text.split(part).length - 1; }

  function textOf(value) {
    if (typeof value === "string") return value;
    if (!Array.isArray(value)) return "";
    return value.filter(function (b) {
      return isObject(b) && b.type === "text" && typeof b.text === "string";
    }).map(function (b) { return b.text; }).join("\n");
  }

  function markdown(text) {
    if (MARKDOWN_SYNTAX.test(text)) return '<div class="as-written">' + esc(text) + "</div>";
    var parts = [];
    text.replace(/^\n+|\n+$/g, "").split(/\n[ \t]*\n/).forEach(function (block) {
      var lines = block.split("\n").map(strip);
      if (lines.some(Boolean)) {
        parts.push("<p>" + lines.map(function (line) {
          return line.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
        }).join("<br />\n") + "</p>\n");
      }
    });
    return parts.join("");
  }

  function mdDiv(text) { return '<div class="markdown">' + markdown(text) + "</div>"; }

  function image(block, css) {
    if (block.type !== "image") return "";
    var mime = str(block.mimeType, "image/png").toLowerCase();
    var data = str(block.data);
    if (!has(MIMES, mime) || !/^[A-Za-z0-9]+$/.test(data.replace(/=+$/, "").replace(/[+\/]/g, ""))) {
      return '<div class="tool-error">[image not shown: not an embedded png/jpeg/gif/webp]</div>';
    }
    return '<img class="' + css + '" src="data:' + mime + ";base64," + data + '" alt="">';
  }

  function expandable(text, preview) {
    text = text.replace(/\t/g, "   ");
    var remaining = count(text, "\n") + 1 - preview;
    if (remaining <= 0) return '<div class="tool-output"><pre class="hl">' + esc(text) + "</pre></div>";
    return '<div class="tool-output expandable preview-' + preview + '"><pre class="hl">' + esc(text) +
      '</pre><div class="expand-hint">... (' + remaining + " more lines)</div></div>";
  }

  function header(name, pathHtml, extra) {
    return '<div class="tool-header"><span class="tool-name">' + esc(name) + '</span> ' +
      '<span class="tool-path">' + pathHtml + "</span>" + (extra || "") + "</div>";
  }

  function pathHtml(value, home, fallback) {
    if (value === undefined || value === null) value = fallback || "";
    if (typeof value !== "string") return INVALID;
    if (home && value.indexOf(home + "/") === 0) value = "~" + value.slice(home.length);
    return esc(value);
  }

  function pathArg(args) { return has(args, "file_path") ? args.file_path : args.path; }
  function resultText(result) { return result ? textOf(result.content) : ""; }

  function resultImages(result) {
    var content = result ? result.content : null;
    if (!Array.isArray(content)) return "";
    var shown = content.filter(isObject).map(function (b) { return image(b, "tool-image"); }).join("");
    return shown ? '<div class="tool-images">' + shown + "</div>" : "";
  }

  var TOOLS = {
    bash: function (args, result) {
      var command = args.command;
      var shown = typeof command !== "string" ? INVALID : esc(command || "...");
      var output = strip(resultText(result));
      return '<div class="tool-command">$ ' + shown + "</div>" + (output ? expandable(output, 5) : "");
    },
    read: function (args, result, home) {
      var path = pathArg(args);
      var html = pathHtml(path, home);
      var offset = args.offset, limit = args.limit;
      if (typeof path === "string" && (isInt(offset) || isInt(limit))) {
        var start = isInt(offset) ? offset : 1;
        html += '<span class="line-numbers">:' + start + (isInt(limit) ? "-" + (start + limit - 1) : "") + "</span>";
      }
      html = header("read", html) + resultImages(result);
      var output = resultText(result);
      return html + (output ? expandable(output, 10) : "");
    },
    write: function (args, result, home) {
      var content = args.content;
      var extra = "";
      if (typeof content === "string" && count(content, "\n") >= 10) {
        extra = ' <span class="line-count">(' + (count(content, "\n") + 1) + " lines)</span>";
      }
      var html = header("write", pathHtml(pathArg(args), home), extra);
      if (typeof content !== "string") html += '<div class="tool-error">[invalid content arg - expected string]</div>';
      else if (content) html += expandable(content, 10);
      var output = strip(resultText(result));
      return html + (output ? '<div class="tool-output"><pre>' + esc(output) + "</pre></div>" : "");
    },
    edit: function (args, result, home) {
      var html = header("edit", pathHtml(pathArg(args), home));
      var details = result ? result.details : null;
      var diff = isObject(details) ? details.diff : null;
      if (typeof diff === "string" && diff) {
        return html + '<div class="tool-diff">' + diff.split("\n").map(function (line) {
          var kind = line[0] === "+" ? "added" : line[0] === "-" ? "removed" : "context";
          return '<div class="diff-' + kind + '">' + esc(line.replace(/\t/g, "   ")) + "</div>";
        }).join("") + "</div>";
      }
      var output = strip(resultText(result));
      return html + (output ? '<div class="tool-output"><pre>' + esc(output) + "</pre></div>" : "");
    },
    ls: function (args, result, home) {
      var limit = args.limit;
      var extra = limit !== undefined && limit !== null ? ' <span class="line-count">(limit ' + esc(String(limit)) + ")</span>" : "";
      var output = strip(resultText(result));
      return header("ls", pathHtml(args.path, home, "."), extra) + (output ? expandable(output, 20) : "");
    }
  };

  function generic(name, args, result) {
    var html = header(name, "");
    if (Object.keys(args).length) html += expandable(JSON.stringify(args, null, 2), 10);
    html += resultImages(result);
    var output = resultText(result);
    return html + (output ? expandable(output, 10) : "");
  }

  function toolCall(call, result, home) {
    var name = str(call.name, "?");
    var args = isObject(call.arguments) ? call.arguments : {};
    var status = !result ? "pending" : result.isError ? "error" : "success";
    var body = has(TOOLS, name) ? TOOLS[name](args, result, home) : generic(name, args, result);
    return '<div class="tool-execution ' + status + '">' + body + "</div>";
  }

  function user(content) {
    var text = textOf(content);
    var images = Array.isArray(content) ? content.filter(isObject).map(function (b) { return image(b, "message-image"); }).join("") : "";
    var imagesHtml = images ? '<div class="message-images">' + images + "</div>" : "";
    var skill = SKILL.exec(text);
    if (skill) {
      var rest = strip(skill[4] || "");
      return '<details class="skill"><summary>[skill] ' + esc(skill[1]) + "</summary>" + mdDiv(skill[3]) +
        "</details>" + imagesHtml + (rest ? mdDiv(rest) : "");
    }
    return imagesHtml + (strip(text) ? mdDiv(text) : "");
  }

  function assistant(message, findResult, home) {
    var blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    var parts = [];
    blocks.forEach(function (block) {
      var text = str(block.text), thinking = str(block.thinking);
      if (block.type === "text" && strip(text)) parts.push(mdDiv(text));
      else if (block.type === "thinking" && strip(thinking)) {
        parts.push('<div class="thinking"><div class="thinking-text">' + esc(thinking) +
          '</div><div class="thinking-collapsed">Thinking ...</div></div>');
      } else if (block.type === "image") parts.push(image(block, "message-image"));
    });
    blocks.forEach(function (block) {
      if (block.type === "toolCall") parts.push(toolCall(block, findResult(str(block.id)), home));
    });
    if (message.stopReason === "aborted") parts.push('<div class="error-text">Aborted</div>');
    else if (message.stopReason === "error") {
      parts.push('<div class="error-text">Error: ' + esc(str(message.errorMessage, "Unknown error")) + "</div>");
    }
    return parts.join("");
  }

  // JSON as Python's json.dumps writes it by default: ", " and ": " between items.
  function pyJson(value) {
    if (Array.isArray(value)) return "[" + value.map(pyJson).join(", ") + "]";
    if (isObject(value)) {
      return "{" + Object.keys(value).map(function (k) { return JSON.stringify(k) + ": " + pyJson(value[k]); }).join(", ") + "}";
    }
    return value === undefined ? "null" : JSON.stringify(value);
  }

  function custom(type, content) {
    var text = typeof content === "string" || Array.isArray(content) ? textOf(content) : pyJson(content);
    return '<div class="block-title">[' + esc(type) + "]</div>" + mdDiv(text);
  }

  function bashExecution(message) {
    var html = '<div class="tool-command">$ ' + esc(str(message.command)) + "</div>";
    var output = str(message.output);
    if (output) html += expandable(output, 10);
    if (message.cancelled) html += '<div class="warning-text">(cancelled)</div>';
    else if (message.exitCode !== 0 && message.exitCode !== undefined && message.exitCode !== null) {
      html += '<div class="error-text">(exit ' + esc(String(message.exitCode)) + ")</div>";
    }
    return html;
  }

  function messageBody(message, findResult, home) {
    var role = message.role;
    if (role === "user") return [user(message.content), "user-message"];
    if (role === "assistant") return [assistant(message, findResult, home), "assistant-message"];
    if (role === "bashExecution") return [bashExecution(message), "bash-execution"];
    if (role === "toolResult") return ["", ""];
    if (role === "custom" || role === "hookMessage") {
      if (message.display === false) return ["", ""];
      return [custom(str(message.customType), message.content), "custom-message"];
    }
    if (role === "branchSummary" || role === "compactionSummary") return [mdDiv(str(message.summary)), "branch-summary"];
    return [custom(str(role, "message"), message.content), "custom-message"];
  }

  function timestamp(value) {
    var shown;
    if (typeof value === "string" && value) shown = value.replace("T", " ").slice(0, 19);
    else if (typeof value === "number") {
      var date = new Date(value);
      if (isNaN(date.getTime())) return "";
      shown = date.toISOString().replace("T", " ").slice(0, 19);
    } else return "";
    return '<span class="timestamp">' + esc(shown) + "</span>";
  }

  function thousands(value) {
    return isInt(value) ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : "?";
  }

  // The entry's HTML ("" for entries the conversation view does not show).
  function render(entry, findResult, home) {
    var kind = entry.type, body = "", css = "";
    if (kind === "message" && isObject(entry.message)) {
      var shown = messageBody(entry.message, findResult, home);
      body = shown[0];
      css = shown[1];
    } else if (kind === "model_change") {
      body = 'Switched to model: <span class="model-name">' + esc(str(entry.provider) + "/" + str(entry.modelId)) + "</span>";
      css = "model-change";
    } else if (kind === "thinking_level_change") {
      body = "Thinking level: " + esc(str(entry.thinkingLevel));
      css = "model-change";
    } else if (kind === "compaction") {
      body = '<details class="compaction-block"><summary>[compaction] Compacted from ' + thousands(entry.tokensBefore) +
        " tokens</summary>" + mdDiv(str(entry.summary)) + "</details>";
      css = "compaction";
    } else if (kind === "branch_summary") {
      body = '<div class="block-title">Branch Summary</div>' + mdDiv(str(entry.summary));
      css = "branch-summary";
    } else if (kind === "custom_message" && entry.display !== false) {
      body = custom(str(entry.customType), entry.content);
      css = "custom-message";
    }
    if (!body) return "";
    var id = str(entry.id);
    var href = encodeURIComponent(id).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
    return '<div class="entry ' + css + '" id="entry-' + esc(id) + '"><div class="entry-meta">' + timestamp(entry.timestamp) +
      '<a class="permalink" href="#' + esc(href) + '" title="Link to this message">#</a></div>' + body + "</div>";
  }

  return { render: render };
})();
