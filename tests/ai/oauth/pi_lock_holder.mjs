// Holds auth.json's lock with pi's own locking library (proper-lockfile, as pi's AuthStorage
// calls it), prints "locked", and on a line from stdin writes that line as auth.json, releases.
// usage: node pi_lock_holder.mjs <auth.json>
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
const require = createRequire(`${process.env.PI_REF}/node_modules/`);
const lockfile = require("proper-lockfile");
const path = process.argv[2];
const release = await lockfile.lock(path, { realpath: false, stale: 30000 });
console.log("locked");
process.stdin.setEncoding("utf8");
let text = "";
process.stdin.on("data", (chunk) => {
  text += chunk;
  if (text.includes("\n")) {
    writeFileSync(path, text.trim(), "utf-8");
    release().then(() => console.log("released"));
  }
});
