// Runs pi 0.73.1's own compaction functions on a session file and prints what they return.
// Usage: node pi_reference.mjs <pi dist/core dir> <session.jsonl> <spec.json>
// spec: {"leaves": [id or null, ...], "keepRecent": [20000, 2000], "prefixes": [n, ...],
//        "branches": [[oldLeaf, target], ...], "budgets": [0, 500]}
// prepareCompaction runs on the first n entries of the branch ending at each leaf (null: the
// session's leaf).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [core, sessionFile, specFile] = process.argv.slice(2);
const load = (name) => import(pathToFileURL(join(core, name)).href);
const compaction = await load("compaction/index.js");
const { SessionManager } = await load("session-manager.js");
const spec = JSON.parse(readFileSync(specFile, "utf8"));

const session = SessionManager.open(sessionFile);
const branch = session.getBranch();
const messages = session.buildSessionContext().messages;
const sorted = (set) => [...set].sort();
const fileOps = (ops) => ({ read: sorted(ops.read), written: sorted(ops.written), edited: sorted(ops.edited) });
const summary = (list) => list.map((m) => [m.role, compaction.estimateTokens(m)]);

const prepared = {};
for (const leaf of spec.leaves ?? [null]) {
	const path = leaf ? session.getBranch(leaf) : branch;
	for (const keep of spec.keepRecent ?? []) {
		const settings = { ...compaction.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: keep };
		for (const n of spec.prefixes ?? [path.length]) {
			const p = compaction.prepareCompaction(path.slice(0, n), settings);
			prepared[`${leaf}:${keep}:${n}`] = p === undefined ? null : {
				firstKeptEntryId: p.firstKeptEntryId,
				isSplitTurn: p.isSplitTurn,
				tokensBefore: p.tokensBefore,
				previousSummary: p.previousSummary ?? null,
				messagesToSummarize: summary(p.messagesToSummarize),
				turnPrefixMessages: summary(p.turnPrefixMessages),
				fileOps: fileOps(p.fileOps),
				fileLists: compaction.computeFileLists(p.fileOps),
			};
		}
	}
}

const branches = {};
for (const [oldLeaf, target] of spec.branches ?? []) {
	const { entries, commonAncestorId } = compaction.collectEntriesForBranchSummary(session, oldLeaf, target);
	const budgets = {};
	for (const budget of spec.budgets ?? [0]) {
		const b = compaction.prepareBranchEntries(entries, budget);
		budgets[budget] = { messages: summary(b.messages), fileOps: fileOps(b.fileOps), totalTokens: b.totalTokens };
	}
	branches[`${oldLeaf}>${target}`] = { ids: entries.map((e) => e.id), commonAncestorId, budgets };
}

const estimate = compaction.estimateContextTokens(messages);
process.stdout.write(
	JSON.stringify({
		branchIds: branch.map((e) => e.id),
		estimate,
		perMessage: summary(messages),
		lastUsage: compaction.getLastAssistantUsage(branch) ?? null,
		prepared,
		branches,
	}),
);
