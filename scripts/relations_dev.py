"""Build tests/gold/relations_dev_more.jsonl from the compact source below (written for the project, CC BY-SA 4.0)."""
import json, sys
sys.path.insert(0, 'python')
from tahqiq.core import scan
SRC = open(sys.argv[1], encoding='utf-8').read()
out = []
for n, block in enumerate([b for b in SRC.split('\n\n') if b.strip()], 1):
    lines = [l.strip() for l in block.strip().splitlines()]
    text = lines[0]
    ents, rels = {}, []
    def locate(frag):
        k = 1
        if '#' in frag:
            frag, _, kk = frag.rpartition('#'); k = int(kk)
        toks = scan(text)
        starts = {t.start for t in toks}; ends = {t.end for t in toks}
        i, found = -1, 0
        while found < k:
            i = text.index(frag, i + 1)
            if i in starts and i + len(frag) in ends:
                found += 1
        return i, i + len(frag), frag
    for l in lines[1:]:
        if '=>' in l:
            pred, rest = l.split(' ', 1)
            s, o = [x.strip() for x in rest.split('=>')]
            rels.append((pred, s, o))
        else:
            typ, frag = l.split(' ', 1)
            st, en, frag = locate(frag)
            ents[(st, en)] = {"type": typ, "start": st, "end": en, "text": frag}
    def find(t):
        st, en, _ = locate(t)
        if (st, en) not in ents: raise SystemExit(f"{n}: no entity {t!r} in {text}")
        return ents[(st, en)]
    out.append({"id": n, "text": text, "entities": list(ents.values()),
                "relations": [{"predicate": p, "subject": find(s), "object": find(o)} for p, s, o in rels]})
with open(sys.argv[2], 'w', encoding='utf-8') as f:
    for item in out:
        f.write(json.dumps(item, ensure_ascii=False) + '\n')
print(len(out), 'sentences', sum(len(x['relations']) for x in out), 'relations')
