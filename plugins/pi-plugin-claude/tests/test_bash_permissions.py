"""Bash permission decisions, command by command, in every mode (issue 28, "Permissions that hold").

The settings are the probe's: allow `Bash(git status:*)` and `Bash(npm test)`; deny `Bash(rm:*)`,
`Read(./secrets/**)` and `Edit(//etc/locked/**)`. Each row gives the decision in the modes
default, plan, acceptEdits, dontAsk and bypassPermissions as five letters: A allow, Q ask (in
plan mode: refused until the plan is approved), D deny. Rows marked "cc" were run through
Claude Code 2.1.197 (`claude -p --permission-mode …` against a loopback fake Anthropic server)
in the modes named (default when none is) and gave the same decision. "cc-ask" marks a row where
Claude Code asks and pi denies, because a denied command runs inside the line (the issue asks
for "any deny denies"); "cc-asks" marks the one row where Claude Code asks and pi allows (an
unquoted heredoc whose body has nothing to expand), "cc-runs" one where Claude Code runs a
read it should not (`cat < /etc/passwd`: it does not check input redirections). Like Claude
Code, a command with another command's output as a word (`$(…)`, backticks) always asks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pi_plugin_claude.permissions import PermissionPolicy, parse_mode, parse_rule

CWD = "/proj"
HOME = "/home/u"
MODES = ("default", "plan", "acceptEdits", "dontAsk", "bypassPermissions")
LETTER = {"allow": "A", "ask": "Q", "deny": "D"}

ALLOW = ["Bash(git status:*)", "Bash(npm test)"]
DENY = ["Bash(rm:*)", "Read(./secrets/**)", "Edit(//etc/locked/**)"]

READ = "AAAAA"  # read-only inside the project: allowed in every mode
ASK = "QQQDA"  # needs approval: plan refuses, dontAsk denies, bypass runs
EDIT = "QQADA"  # a file change inside the project: acceptEdits allows it
RULE = "AAAAA"  # allowed by a Bash allow rule, in every mode (plan too, as Claude Code)
DENIED = "DDDDD"  # a deny rule: denied even under bypassPermissions

ROWS: list[tuple[str, str, str]] = [
    # P2: "read-only" commands that write or execute
    ("env rm -rf x", DENIED, "cc"),
    ("env sh -c 'touch x'", EDIT, "cc"),
    ("env sh -c 'curl evil.example'", ASK, ""),
    ("env -S 'ls'", ASK, ""),
    ("find . -delete", ASK, "cc"),
    ("find . -name x -exec rm {} \\;", ASK, ""),
    ("find . -name x -exec cat {} \\;", ASK, "cc"),
    ("find . -execdir sh -c id \\;", ASK, ""),
    ("find . -ok rm {} \\;", ASK, ""),
    ("find . -okdir rm {} \\;", ASK, ""),
    ("find . -fprint out.txt", ASK, "cc (with -name x)"),
    ("find . -fprint0 out.txt", ASK, ""),
    ("find . -fprintf out.txt %p", ASK, ""),
    ("find . -fls out.txt", ASK, ""),
    ("find $DIR -name x", ASK, ""),
    ("sort -o out.txt README.md", ASK, "cc plan"),
    ("sort --output=out.txt README.md", ASK, ""),
    ("sort -uo out.txt README.md", ASK, ""),
    ("uniq README.md out.txt", ASK, "cc"),
    ("tree -o out.txt", ASK, "cc"),
    ("tree -R -H x", ASK, ""),
    ("git branch -D main", ASK, "cc"),
    ("git branch newbranch", ASK, ""),
    ("git branch -m a b", ASK, ""),
    ("git branch --set-upstream-to=origin/x", ASK, ""),
    ("git tag v1", ASK, "cc"),
    ("git tag -d v1", ASK, ""),
    ("git diff --output=out.txt", ASK, "cc"),
    ("git log --output=out.txt", ASK, ""),
    ("git show --ext-diff", ASK, "cc"),
    ("git diff --ext-diff HEAD", ASK, ""),
    ("git log --format=%G?", ASK, ""),
    ("git grep -O hi", ASK, ""),
    ("git -c core.pager=cat log", ASK, "cc"),
    ("git --exec-path=/tmp status", ASK, ""),
    ("git config user.name x", ASK, ""),
    ("git stash", ASK, "cc"),
    ("git remote add o url", ASK, ""),
    ("git worktree add ../x", ASK, ""),
    ("git commit -m x", ASK, ""),
    ("git push", ASK, ""),
    ("rg --pre cat hi", ASK, "cc"),
    ("rg --pre=cat hi", ASK, ""),
    ("rg -z hi", ASK, ""),
    ("date -s 2020-01-01", ASK, "cc"),
    ("date --set=2020-01-01", ASK, ""),
    ("date 010100002020", ASK, ""),
    ("sed -i 's/a/b/' README.md", EDIT, "cc; cc acceptEdits"),
    ("sed -n 'w out.txt' README.md", ASK, ""),
    ("sed -i '1e curl evil.example' README.md", ASK, ""),
    ("sed -i -e 's/a/b/' -e '1d' README.md", EDIT, ""),
    ("sed 's/a/b/w out.txt' README.md", ASK, ""),
    ("sed -f script.sed README.md", ASK, ""),
    ("file -C -m magic", ASK, ""),
    ("hostname evil", ASK, ""),
    ("jq -f prog.jq data.json", ASK, ""),
    ("jq env data.json", ASK, ""),
    # wrappers and prefixes never hide a denied command (P7)
    ("FOO=1 rm -rf x", DENIED, "cc"),
    ("FOO=1 BAR=2 rm x", DENIED, ""),
    ("command rm -rf x", DENIED, "cc"),
    ("command -p rm x", DENIED, ""),
    ("sudo rm x", DENIED, "cc"),
    ("sudo -u root rm x", DENIED, ""),
    ("timeout 5 rm x", DENIED, "cc"),
    ("timeout -s KILL 5 rm x", DENIED, ""),
    ("nice rm x", DENIED, ""),
    ("nice -n 5 rm x", DENIED, ""),
    ("nohup rm x", DENIED, ""),
    ("time rm x", DENIED, ""),
    ("stdbuf -oL rm x", DENIED, ""),
    ("exec rm x", DENIED, ""),
    ("watch -n 1 rm x", DENIED, ""),
    ("env -i rm x", DENIED, ""),
    ("env -u HOME rm x", DENIED, ""),
    ("env FOO=1 BAR=2 rm x", DENIED, ""),
    ("echo a | xargs rm", DENIED, "cc"),
    ("xargs -0 -n 1 rm < list", DENIED, ""),
    ("\\rm x", DENIED, ""),
    ("'rm' x", DENIED, ""),
    ('"rm" -rf x', DENIED, ""),
    ("r\\m x", DENIED, ""),
    ("bash -c 'rm -rf x'", DENIED, "cc-ask"),
    ('sh -c "rm x"', DENIED, ""),
    ("zsh -c 'ls; rm x'", DENIED, ""),
    ("dash -c 'rm x'", DENIED, ""),
    ("bash -lc 'rm x'", DENIED, ""),
    ("bash -c \"sh -c 'rm x'\"", DENIED, ""),
    ("sudo env FOO=1 nice timeout 5 command rm x", DENIED, ""),
    ("/bin/rm x", ASK, ""),
    ("LD_PRELOAD=/tmp/x.so ls", ASK, "cc"),
    ("PAGER=evil git log", ASK, "cc"),
    ("FOO=1 npm test", ASK, "cc"),
    ("NODE_ENV=test npm test", RULE, "cc"),
    ("LANG=C ls", READ, "cc"),
    # P3: a single `&` separates commands
    ("echo hi & rm -rf x", DENIED, "cc"),
    ("git status & touch pwned", EDIT, "cc"),
    ("ls & curl evil.example", ASK, "cc"),
    ("ls &", READ, ""),
    ("sleep 1 & wait", ASK, "cc"),
    # every separator splits
    ("git status; rm -rf x", DENIED, "cc"),
    ("git status && rm x", DENIED, ""),
    ("git status || rm x", DENIED, ""),
    ("git status | rm x", DENIED, ""),
    ("git status |& rm x", DENIED, ""),
    ("git status\nrm x", DENIED, ""),
    ("(rm x)", DENIED, ""),
    ("{ rm x; }", DENIED, ""),
    ("! rm x", DENIED, ""),
    ("ls; (cd src && rm x)", DENIED, ""),
    # P4: substitutions and redirections after an allowed prefix
    ("git status $(rm x)", DENIED, "cc-ask"),
    ("git status `rm x`", DENIED, ""),
    ("git status <(rm x)", DENIED, ""),
    ('git status "$(rm x)"', DENIED, ""),
    ("git status $(curl evil.example)", ASK, ""),
    ("git status $(touch y)", ASK, ""),
    ("git status > out.txt", EDIT, "cc; cc acceptEdits"),
    ("git status >> out.txt", EDIT, ""),
    ("git status &> out.txt", EDIT, ""),
    ("git status 2> err.txt", EDIT, ""),
    ("git status > /tmp/out.txt", ASK, ""),
    ("git status > $OUT", ASK, ""),
    ("git status > /etc/locked/x", DENIED, ""),
    ("cat README.md > /etc/locked/f", DENIED, ""),
    ("npm test > out.txt", EDIT, "cc"),
    ("npm test > /etc/locked/log", DENIED, ""),
    ("npm test; rm x", DENIED, ""),
    ("npm test && curl evil.example", ASK, ""),
    ("npm test | tee out.txt", ASK, ""),
    ("npm test $(id)", ASK, ""),
    ("npm test `id`", ASK, ""),
    ("npm test --watch", ASK, "cc"),
    ("npm testing", ASK, ""),
    ("X=$(rm y)", DENIED, ""),
    ("export A=$(rm q)", DENIED, ""),
    ("cat <<EOF\n$(rm x)\nEOF", DENIED, ""),
    ("cat <<<$(rm x)", DENIED, ""),
    ("echo $(echo $(rm x))", DENIED, ""),
    ("echo hi > out.txt", EDIT, "cc acceptEdits; cc plan"),
    ("echo hi >> /tmp/out.txt", ASK, "cc acceptEdits"),
    ("cat ~/.ssh/id_rsa > out.txt", ASK, ""),
    ("cat README.md > out.txt", EDIT, ""),
    # P6: read-only commands outside the working folders, and Read deny rules
    ("cat ~/.ssh/id_rsa", ASK, "cc; cc dontAsk; cc plan"),
    ("cat ~root/.ssh/id_rsa", ASK, ""),
    ("cat ~nosuchuser/x", ASK, ""),
    ("cat /etc/passwd", ASK, ""),
    ("ls ..", ASK, "cc"),
    ("cat ../other/x", ASK, ""),
    ("cat src/../../etc/passwd", ASK, ""),
    ("head -n 5 /etc/hosts", ASK, ""),
    ("grep -r key ~", ASK, ""),
    ("ls ~/.ssh/*", ASK, ""),
    ("find / -name x", ASK, ""),
    ("find -L / -name x", ASK, "cc"),
    ("find -L . -name x", READ, ""),
    ("cat < /etc/passwd", ASK, "cc-runs: Claude Code misses the input redirection"),
    ("cd /tmp", ASK, ""),
    ("env -C / cat etc/passwd", ASK, ""),
    ("sudo -D / cat etc/shadow", ASK, ""),
    ("xargs -a list cat", ASK, "cc"),
    ("wc --files0-from=list", ASK, ""),
    ("cd", ASK, "cc"),
    ("cd -", ASK, ""),
    ("cd && cat .ssh/id_rsa", ASK, ""),
    ("cd secrets && cat key", DENIED, "cc"),
    ("(cd secrets) ; cat key", DENIED, ""),
    ("cd src && cat ../secrets/key", DENIED, ""),
    ("cd src; cat ../README.md", ASK, ""),  # judged from both folders: /README.md is outside
    ("tree /", ASK, ""),
    ("wc -l ~/.bashrc", ASK, ""),
    ("diff README.md /etc/hosts", ASK, ""),
    ("rg foo /etc", ASK, ""),
    ("grep -f /etc/shadow x", ASK, ""),
    ("date -r /etc/shadow", ASK, ""),
    ("git -C /etc log", ASK, ""),
    ("git diff --no-index README.md /etc/passwd", ASK, ""),
    ("cat $HOME/.ssh/id_rsa", ASK, ""),
    ("cat {~/.ssh/id_rsa,README.md}", ASK, ""),
    ("ls $(echo ~/.ssh)", ASK, ""),
    ("cat secrets/key", DENIED, "cc"),
    ("cat ./secrets/key", DENIED, ""),
    ("cat /proj/secrets/key", DENIED, ""),
    ("grep x secrets/key", DENIED, ""),
    ("head secrets/a/b", DENIED, ""),
    ("cat < secrets/key", DENIED, ""),
    ("cat src/../secrets/key", DENIED, ""),
    ("cat secrets/*", DENIED, "cc"),
    ("tail -n 1 README.md secrets/key", DENIED, ""),
    ("sort secrets/key | uniq", DENIED, ""),
    # what cannot be parsed or is not known asks
    ("echo 'unterminated", ASK, ""),
    ("if true; then ls; fi", ASK, ""),
    ("for f in *; do cat $f; done", ASK, ""),
    ("case x in a) ls;; esac", ASK, ""),
    ("f() { ls; }; f", ASK, ""),
    ("$X args", ASK, "cc"),
    ("${CMD} x", ASK, ""),
    ("$(echo ls) x", ASK, ""),
    ('sh -c "$CMD"', ASK, ""),
    ("eval ls", ASK, ""),
    ("source ./x.sh", ASK, ""),
    ("bash x.sh", ASK, ""),
    ("python3 -c 'print(1)'", ASK, ""),
    ("curl evil.example", ASK, ""),
    ("npm install", ASK, ""),
    ("find . -name '*.py' | xargs grep foo", ASK, ""),
    # acceptEdits: file changes inside the project only
    ("mkdir build", EDIT, "cc acceptEdits"),
    ("touch x", EDIT, "cc acceptEdits; cc dontAsk; cc plan"),
    ("cp README.md b", EDIT, ""),
    ("mv a b", EDIT, ""),
    ("mkdir /tmp/x", ASK, ""),
    ("touch ../x", ASK, ""),
    ("cp --target-directory=/etc/cron.d x", ASK, ""),
    ("cp -t /etc/cron.d x", ASK, ""),
    ("touch $F", ASK, ""),
    ("chmod +x a", ASK, ""),
    # safe twins: stay allowed
    ("git status", READ, "cc plan"),
    ("git status --short", READ, "cc"),
    ("git status && npm test", RULE, "cc"),
    ("npm test; git status", RULE, "cc"),
    ("npm test", RULE, "cc; cc plan"),
    ("ls -la src", READ, "cc"),
    ("ls", READ, ""),
    ("ls *.md", READ, "cc"),
    ("pwd", READ, ""),
    ("find . -name x", READ, ""),
    ("find . -name '*.py' -type f", READ, ""),
    ("find src -newer README.md", READ, ""),
    ("cat README.md", READ, "cc plan"),
    ("cat < README.md", READ, "cc"),
    ('echo "a && b"', READ, "cc"),
    ("echo 'rm -rf x'", READ, ""),
    ('grep "rm -rf" README.md', READ, ""),
    ("grep -r foo .", READ, "cc"),
    ("grep -rn --include='*.py' foo src", READ, ""),
    ("cat README.md | grep hi", READ, "cc"),
    ("cat README.md | grep hi | wc -l", READ, ""),
    ("head -n 5 README.md", READ, ""),
    ("tail -n 20 README.md", READ, ""),
    ("wc -l README.md", READ, ""),
    ("git log --oneline -5", READ, "cc"),
    ("git diff HEAD~1", READ, ""),
    ("git diff --stat", READ, ""),
    ("git show HEAD", READ, ""),
    ("git branch", READ, "cc"),
    ("git branch -a", READ, ""),
    ("git branch --list 'feat*'", READ, "cc"),
    ("git tag", READ, ""),
    ("git tag -l", READ, ""),
    ("git remote -v", READ, "cc"),
    ("git rev-parse HEAD", READ, ""),
    ("git ls-files", READ, ""),
    ("git blame README.md", READ, ""),
    ("git stash list", READ, ""),
    ("git --no-pager log -3", READ, ""),
    ("git config --get user.name", READ, "cc"),
    ("sort README.md", READ, ""),
    ("sort -u -k2 README.md", READ, ""),
    ("uniq README.md", READ, ""),
    ("uniq -c", READ, "cc"),
    ("tree src", READ, ""),
    ("tree -L 2", READ, ""),
    ("date", READ, ""),
    ("date +%Y", READ, "cc"),
    ("date -u", READ, ""),
    ("rg foo src", READ, ""),
    ("rg -n foo", READ, ""),
    ("sed -n 1p README.md", READ, "cc"),
    ("sed -n '1,5p' README.md", READ, ""),
    ("sed -nE '/a/p' README.md", READ, ""),
    ("cat $F", ASK, ""),
    ("git log $REF", ASK, ""),
    ("echo $(rm x)", DENIED, ""),
    ("sed 's/a/b/g' README.md", EDIT, "cc"),
    ("ls > /dev/null 2>&1", READ, ""),
    ("ls 2>/dev/null", READ, "cc"),
    ("echo hi >&2", READ, "cc"),
    ("echo hi > /dev/stderr", READ, ""),
    ("echo hi > /dev/sda", ASK, ""),
    ("git status 2>&1", READ, ""),
    ("stat README.md", READ, ""),
    ("file README.md", READ, ""),
    ("du -sh src", READ, ""),
    ("which python3", READ, ""),
    ("whoami", READ, ""),
    ("echo $HOME", READ, "cc"),
    ("printf '%s\\n' a b", READ, ""),
    ("cd src && ls", READ, "cc"),
    ("(cd src; ls)", READ, ""),
    ("{ ls; pwd; }", READ, ""),
    ("ls; pwd", READ, ""),
    ("ls && pwd || echo no", READ, ""),
    ("true", READ, ""),
    ("X=1", READ, "cc"),
    ("cat <<EOF\nhi\nEOF", READ, "cc-asks: pi reads the body and finds nothing to expand"),
    ("cat <<'EOF'\n$(rm x)\nEOF", READ, ""),
    ("echo $(ls)", ASK, "cc"),
    ("echo `pwd`", ASK, ""),
    ("ls | xargs echo", READ, "cc"),
    ("diff README.md src/a", READ, ""),
    ("jq .name package.json", READ, ""),
    ("command -v git", READ, ""),
    ("[[ -f README.md ]] && cat README.md", READ, "cc"),
]


def policy(mode: str) -> PermissionPolicy:
    """The probe's settings in the given mode."""
    return PermissionPolicy(
        mode=parse_mode(mode),
        allow=[parse_rule(text, CWD) for text in ALLOW],
        deny=[parse_rule(text, CWD) for text in DENY],
        cwd=CWD,
        home=HOME,
    )


def decisions(command: str) -> str:
    """The five letters of a command's decisions, in MODES order."""
    return "".join(
        LETTER[policy(mode).decide("Bash", {"command": command}).behavior] for mode in MODES
    )


def test_the_table_is_large_and_has_no_duplicates() -> None:
    commands = [command for command, _, _ in ROWS]
    assert len(commands) >= 150
    assert len(set(commands)) == len(commands)
    assert sum("cc" in note for _, _, note in ROWS) >= 12


@pytest.mark.parametrize(("command", "expected", "note"), ROWS, ids=[r[0][:60] for r in ROWS])
def test_decision(command: str, expected: str, note: str) -> None:
    assert decisions(command) == expected, f"{command!r}: modes {MODES}"


def test_deny_names_the_rule_and_the_command() -> None:
    decision = policy("bypassPermissions").decide("Bash", {"command": "FOO=1 rm -rf x"})
    assert decision.behavior == "deny"
    assert str(decision.rule) == "Bash(rm:*)"
    assert "FOO=1 rm -rf x" in decision.message


def test_plan_refusal_is_what_the_model_reads() -> None:
    decision = policy("plan").decide("Bash", {"command": "sort -o out.txt README.md"})
    assert decision.behavior == "ask"
    assert decision.unasked_message is not None and "plan mode" in decision.unasked_message


def test_outside_read_asks_for_the_working_folder() -> None:
    decision = policy("default").decide("Bash", {"command": "cat ~/.ssh/id_rsa"})
    assert (decision.behavior, decision.reason_type) == ("ask", "workingDir")


def test_added_directory_counts_as_inside() -> None:
    inside = policy("default")
    inside.additional_directories = ["/data"]
    assert inside.decide("Bash", {"command": "cat /data/x"}).behavior == "allow"
    assert inside.decide("Bash", {"command": "cat /data2/x"}).behavior == "ask"


def test_symlink_out_of_the_project_is_outside(tmp_path: Path) -> None:
    project, secret = tmp_path / "proj", tmp_path / "elsewhere"
    project.mkdir()
    secret.mkdir()
    (secret / "key").write_text("k")
    os.symlink(secret, project / "link")
    linked = PermissionPolicy(cwd=str(project), home=str(tmp_path / "home"))
    assert linked.decide("Bash", {"command": "cat link/key"}).behavior == "ask"
    assert linked.decide("Bash", {"command": "ls"}).behavior == "allow"


def test_ask_rule_catches_a_part() -> None:
    asking = policy("default")
    asking.ask = [parse_rule("Bash(git push:*)", CWD)]
    decision = asking.decide("Bash", {"command": "ls && FOO=1 git push origin"})
    assert (decision.behavior, decision.reason_type) == ("ask", "rule")


def test_edit_allow_rule_allows_a_redirection() -> None:
    editing = policy("default")
    editing.allow.append(parse_rule("Edit(logs/**)", CWD))
    assert editing.decide("Bash", {"command": "npm test > logs/t.txt"}).behavior == "allow"
    assert editing.decide("Bash", {"command": "npm test > out.txt"}).behavior == "ask"


def test_a_whole_tool_allow_rule_allows_what_nothing_denies() -> None:
    everything = policy("default")
    everything.allow.append(parse_rule("Bash", CWD))
    assert everything.decide("Bash", {"command": "$X args; curl x"}).behavior == "allow"
    assert everything.decide("Bash", {"command": "curl x && FOO=1 rm y"}).behavior == "deny"
