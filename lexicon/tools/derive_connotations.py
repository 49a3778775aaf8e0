#!/usr/bin/env python3
"""Derives the connotation lists in lexicon/connotations/ from WordNet 3.0.

For each list, start from chosen senses ("seeds", named by lemma, part of speech and sense
number in WordNet's index order), collect the lemmas of those synsets and of their hyponyms
(troponyms for verbs) down to a depth, plus lemmas derivationally related to the seed synsets
themselves. Keep single lowercase words that are in lexicon/words.txt. Then apply the hand
curation in lexicon/tools/curation/LIST.add and LIST.remove. Deterministic: the same WordNet and
the same files give the same lists.

Run from the repository root (Debian: apt-get install wordnet-base):
    python3 lexicon/tools/derive_connotations.py          # writes lexicon/connotations/*.txt
    python3 lexicon/tools/derive_connotations.py --seeds  # prints each seed sense's gloss
"""
import os
import sys

WORDNET = "/usr/share/wordnet"
POS_FILE = {"n": "noun", "v": "verb", "a": "adj"}

# list -> [(lemma, pos, sense number, hyponym depth)]
SEEDS = {
    "attacking": [
        ("weapon", "n", 1, 4), ("attack", "n", 1, 3), ("attack", "v", 1, 3), ("attack", "v", 2, 2),
        ("assail", "v", 1, 2), ("destroy", "v", 1, 2), ("destroy", "v", 2, 2), ("kill", "v", 1, 2),
        ("fight", "v", 1, 2), ("strike", "v", 1, 1), ("invade", "v", 1, 1), ("conquer", "v", 1, 1),
        ("battle", "n", 1, 1), ("war", "n", 1, 1), ("warrior", "n", 1, 2), ("hit", "v", 3, 2),
        ("wound", "v", 1, 1), ("bombard", "v", 2, 1), ("violence", "n", 1, 1), ("raid", "n", 1, 1),
    ],
    "defending": [
        ("shield", "n", 2, 2), ("protection", "n", 1, 2), ("defense", "n", 1, 2), ("defense", "n", 2, 2),
        ("defense", "n", 10, 2), ("defense", "n", 12, 1),
        ("fortification", "n", 1, 3), ("castle", "n", 2, 1), ("armor", "n", 1, 3), ("protect", "v", 1, 2),
        ("defend", "v", 2, 1), ("defend", "v", 3, 2), ("defend", "v", 5, 1), ("guard", "v", 1, 2), ("guard", "n", 1, 1),
        ("shelter", "n", 1, 1), ("barrier", "n", 1, 2), ("wall", "n", 1, 1), ("safety", "n", 1, 1),
        ("fortress", "n", 1, 1), ("resist", "v", 2, 1), ("secure", "v", 2, 1),
    ],
    "sneaking": [
        ("stealth", "n", 1, 1), ("deception", "n", 1, 3), ("deceive", "v", 1, 2), ("spy", "n", 1, 2),
        ("spy", "v", 2, 1), ("hide", "v", 1, 2), ("hide", "v", 2, 2),
        ("sneak", "v", 1, 1), ("sneak", "v", 2, 1), ("assassinate", "v", 1, 1), ("assassin", "n", 1, 1),
        ("conceal", "v", 1, 1), ("ambush", "n", 1, 1), ("ambush", "v", 1, 1), ("disguise", "n", 1, 1),
        ("trick", "n", 1, 2), ("betray", "v", 2, 1), ("betray", "v", 6, 1), ("steal", "v", 1, 2), ("thief", "n", 1, 1),
        ("secret", "n", 1, 1), ("creep", "v", 1, 1), ("lurk", "v", 1, 1),
    ],
    "burning": [
        ("fire", "n", 1, 2), ("fire", "n", 3, 1), ("fire", "v", 8, 1), ("burn", "v", 1, 2), ("burn", "v", 3, 2), ("burn", "v", 5, 1),
        ("ignite", "v", 1, 1), ("flame", "n", 1, 1), ("cut", "v", 1, 2),
        ("carve", "v", 1, 1), ("carve", "v", 3, 1), ("blade", "n", 9, 1), ("knife", "n", 1, 2),
        ("edge_tool", "n", 1, 2), ("chop", "v", 1, 1), ("slice", "v", 1, 1), ("saw", "v", 1, 1),
        ("scorch", "v", 1, 1), ("char", "v", 1, 1), ("blaze", "n", 1, 1),
    ],
}


def read_index(pos):
    index = {}
    with open(os.path.join(WORDNET, "index." + POS_FILE[pos])) as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.split()
            lemma, synset_cnt, p_cnt = parts[0], int(parts[2]), int(parts[3])
            offsets = parts[4 + p_cnt + 2:]
            index[lemma] = offsets[:synset_cnt]
    return index


def read_data(pos):
    synsets = {}
    with open(os.path.join(WORDNET, "data." + POS_FILE[pos])) as f:
        for line in f:
            if line.startswith(" "):
                continue
            body, _, gloss = line.partition(" | ")
            parts = body.split()
            offset, w_cnt = parts[0], int(parts[3], 16)
            words = [parts[4 + 2 * i] for i in range(w_cnt)]
            i = 4 + 2 * w_cnt
            p_cnt = int(parts[i])
            pointers = []
            for k in range(p_cnt):
                sym, target, tpos = parts[i + 1 + 4 * k: i + 4 + 4 * k]
                pointers.append((sym, target, "a" if tpos == "s" else tpos))
            synsets[offset] = (words, pointers, gloss.strip())
    return synsets


def main():
    root = os.getcwd()
    dictionary = set(open(os.path.join(root, "lexicon/words.txt")).read().split())
    index = {p: read_index(p) for p in POS_FILE}
    data = {p: read_data(p) for p in POS_FILE}
    if "--seeds" in sys.argv:
        for name, seeds in SEEDS.items():
            for lemma, pos, sense, depth in seeds:
                offset = index[pos][lemma][sense - 1]
                print(f"{name}: {lemma}.{pos}.{sense} (depth {depth}): {data[pos][offset][2][:90]}")
        return
    curation = os.path.join(root, "lexicon/tools/curation")
    for name, seeds in SEEDS.items():
        lemmas = set()
        for lemma, pos, sense, depth in seeds:
            start = (pos, index[pos][lemma][sense - 1])
            frontier, seen = [start], {start}
            for level in range(depth + 1):
                following = []
                for p, off in frontier:
                    words, pointers, _ = data[p][off]
                    lemmas.update(words)
                    for sym, target, tpos in pointers:
                        if sym in ("~", "~i") and (tpos, target) not in seen:
                            seen.add((tpos, target))
                            following.append((tpos, target))
                        if level == 0 and sym == "+":
                            lemmas.update(data[tpos][target][0])
                frontier = following
        words = {w for w in lemmas if w.isalpha() and w.islower() and w in dictionary and len(w) >= 2}
        words |= set(read_list(os.path.join(curation, name + ".add")))
        words -= set(read_list(os.path.join(curation, name + ".remove")))
        missing = sorted(w for w in words if w not in dictionary)
        if missing:
            sys.exit(f"{name}: not in words.txt: {missing}")
        out = os.path.join(root, "lexicon/connotations", name + ".txt")
        with open(out, "w") as f:
            f.write(f"# Connotation `{name}`: base words; inflected forms resolve to them.\n")
            f.write("# Generated by lexicon/tools/derive_connotations.py from WordNet 3.0 and the\n")
            f.write("# hand curation in lexicon/tools/curation/; edit those, not this file.\n")
            for w in sorted(words):
                f.write(w + "\n")
        print(f"{name}: {len(words)} words")
    write_base_forms(root, dictionary)


def write_base_forms(root, dictionary):
    """lexicon/base-forms.txt: WordNet's irregular inflections (hidden -> hide, knives -> knife),
    for inflected forms in the dictionary; regular ones (-s, -ed, -ing) are handled in code."""
    pairs = set()
    for pos in ("noun", "verb", "adj"):
        with open(os.path.join(WORDNET, pos + ".exc")) as f:
            for line in f:
                inflected, *bases = line.split()
                for base in bases:
                    if inflected.isalpha() and base.isalpha() and inflected in dictionary and inflected != base:
                        pairs.add((inflected, base))
    with open(os.path.join(root, "lexicon/base-forms.txt"), "w") as f:
        f.write("# Irregular inflected forms and their base forms, from WordNet 3.0's noun.exc,\n")
        f.write("# verb.exc and adj.exc. Generated by lexicon/tools/derive_connotations.py.\n")
        for inflected, base in sorted(pairs):
            f.write(f"{inflected} {base}\n")
    print(f"base forms: {len(pairs)} pairs")


def read_list(path):
    if not os.path.exists(path):
        return []
    return [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]


if __name__ == "__main__":
    main()
