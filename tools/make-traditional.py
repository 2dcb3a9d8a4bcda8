#!/usr/bin/env python3
"""Makes the client's Traditional Chinese (繁體中文, Taiwan usage) from its Simplified Chinese,
with OpenCC's s2twp conversion: `pip install opencc`, then `python3 tools/make-traditional.py`.

Writes static/js/strings_zh_hant.js (the table of static/js/strings_zh.js, converted),
static/js/rules_zh_hant.js (each Chinese line of static/js/views/rules.js, converted), and the
"zh-Hant" of every text of the lessons (crates/jungle-learn/src/chapters/*.json). Run it
again after changing the Chinese texts; a browser test checks that every table has every key.
The result is committed: the client has no build step and converts nothing at run time.
"""
import json
import pathlib
import re

import opencc

ROOT = pathlib.Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
_s2twp = opencc.OpenCC("s2twp").convert
# Where Taiwan's computing words are wrong for a board game: 循环 is a repetition of moves,
# not a program's loop (迴圈). And where OpenCC keeps a Mainland form Taiwan does not write:
# an account is 帳號 there (賬 is the Mainland's).
PHRASES = {"迴圈": "循環", "賬": "帳"}


def convert(text):
    text = _s2twp(text)
    for wrong, right in PHRASES.items():
        text = text.replace(wrong, right)
    return text
HEADER = "// Made by tools/make-traditional.py from the Simplified Chinese: edit those and run it again.\n\n"


def strings():
    text = (JS / "strings_zh.js").read_text()
    start = text.index("export const ZH = {\n") + len("export const ZH = {\n")
    end = text.index("\n};", start)
    block = text[start:end]
    # Only the quoted values change: keys and JavaScript stay as they are.
    converted = re.sub(r"'((?:[^'\\]|\\.)*)'", lambda m: "'" + convert(m.group(1)) + "'", block)
    (JS / "strings_zh_hant.js").write_text(
        HEADER + "/** The client's strings in Traditional Chinese. */\nexport const ZH_HANT = {\n" + converted + "\n};\n"
    )


def rules():
    text = (JS / "views" / "rules.js").read_text()
    lines = re.findall(r"'((?:[^'\\]|\\.)*[\u4e00-\u9fff](?:[^'\\]|\\.)*)'", text)
    table = {line: convert(line) for line in dict.fromkeys(lines)}
    body = ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in table.items())
    (JS / "rules_zh_hant.js").write_text(
        HEADER
        + "/** Each Chinese line of the rules page, in Traditional Chinese, by its Simplified text. */\n"
        + "export const RULES_ZH_HANT = {\n" + body + ",\n};\n"
    )


def lessons():
    def fill(node):
        if isinstance(node, dict):
            if "zh" in node and "en" in node and isinstance(node["zh"], str):
                node["zh-Hant"] = convert(node["zh"])
            for value in node.values():
                fill(value)
        elif isinstance(node, list):
            for value in node:
                fill(value)

    for path in sorted((ROOT / "crates" / "jungle-learn" / "src" / "chapters").glob("*.json")):
        chapter = json.loads(path.read_text())
        fill(chapter)
        path.write_text(json.dumps(chapter, ensure_ascii=False, indent=2) + "\n")


strings()
rules()
lessons()
