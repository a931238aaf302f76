#!/usr/bin/env python3
"""Writes queries.jsonl of the `names` dataset: tool names as an agent half-remembers them.

Run from this folder: `python3 generate.py`. It reads only the catalogs of `../catalogs/` and
writes the same file every time (seeded). Not run by any test; kept as the dataset's
provenance. See ../README.md.

From 120 tools drawn with a fixed seed (operations named "METHOD /path" left out), two kinds
of query:
- `style`: the name in the other naming convention (snake_case <-> camelCase);
- `plural`: the name in snake_case with its last word in the other number (`list_page` for
  `list_pages`), skipped when that names another tool exactly.
The relevant tools of a query are every tool whose name has the same words as the original.
"""
import glob, json, os, random, re

BASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "catalogs")


def load():
    tools = {}
    for f in sorted(glob.glob(os.path.join(BASE, "mcp", "*.json"))):
        server = os.path.basename(f)[:-5]
        tools[server] = [t["name"] for t in json.load(open(f))["tools"]]
    for f in sorted(glob.glob(os.path.join(BASE, "plugin", "*.json"))):
        server = os.path.basename(f)[:-5]
        tools[server] = [(t.get("function") or t)["name"] for t in json.load(open(f))]
    for f in sorted(glob.glob(os.path.join(BASE, "openapi", "*"))):
        server = os.path.splitext(os.path.basename(f))[0]
        text = open(f).read()
        if f.endswith(".json"):
            doc = json.loads(text)
            ids = [op["operationId"] for ops in doc.get("paths", {}).values()
                   for op in ops.values() if isinstance(op, dict) and "operationId" in op]
        else:  # YAML: the operationId lines of the top-level `paths:` section
            ids, section = [], None
            for line in text.splitlines():
                if re.match(r"^[A-Za-z]", line):
                    section = line.split(":")[0]
                m = re.match(r"^\s*operationId:\s*['\"]?([A-Za-z0-9_.-]+)", line)
                if m and section == "paths":
                    ids.append(m.group(1))
        tools[server] = ids
    return tools


def words(name):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", s) if w]


def norm(name):
    return " ".join(words(name))


def style(name):
    ws = words(name)
    if "_" in name or "-" in name:
        return ws[0] + "".join(w.capitalize() for w in ws[1:])
    return "_".join(ws)


def plural(name):
    ws = words(name)
    w = ws[-1]
    ws[-1] = w[:-1] if w.endswith("s") and not w.endswith("ss") else w + "s"
    return "_".join(ws)


def main():
    tools = load()
    by_norm = {}
    for server in sorted(tools):
        for t in tools[server]:
            by_norm.setdefault(norm(t), []).append((server, t))
    names = [(s, t) for s in sorted(tools) for t in sorted(set(tools[s]))
             if not re.match(r"^(GET|POST|PUT|PATCH|DELETE) ", t)]
    random.seed(7)
    sample = random.sample(names, 120)
    out = []
    for kind, make in [("style", style), ("plural", plural)]:
        for server, tool in sample:
            query = make(tool)
            if kind == "plural" and norm(query) in by_norm:
                continue
            seen, relevant = set(), []
            for s, t in by_norm[norm(tool)]:
                if (s, t) not in seen:
                    seen.add((s, t))
                    relevant.append({"server": s, "tool": t, "grade": 2})
            out.append({"id": f"name-{kind}-{len(out) + 1:03d}", "query": query,
                        "relevant": relevant, "tags": [kind, "name"]})
    with open("queries.jsonl", "w") as f:
        for q in out:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print(len(out), "queries")


if __name__ == "__main__":
    main()
