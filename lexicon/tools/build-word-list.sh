#!/usr/bin/env bash
# Derives lexicon/words.txt from SCOWL (Debian package `scowl`, 2020.12.07).
# Word categories only (no abbreviations, proper names, contractions or capitalised words),
# sizes 10 to 80, English plus the American, British and Canadian spellings, lowercase a-z only;
# less the entries in lexicon/removed-words.txt (letter plurals, abbreviations); then the
# hand-checked supplement lexicon/extra-words.txt. Run from the repository root:
#   apt-get install scowl && bash lexicon/tools/build-word-list.sh
set -euo pipefail
scowl=/usr/share/dict/scowl
max_size=80
files=()
for category in english-words american-words british-words canadian-words; do
  for f in "$scowl/$category".*; do
    size=${f##*.}
    if [ "$size" -le "$max_size" ]; then files+=("$f"); fi
  done
done
{
  cat "${files[@]}" | iconv -f ISO-8859-1 -t UTF-8 | grep -E '^[a-z]+$' \
    | grep -vxF -f <(grep -Ev '^(#|$)' lexicon/removed-words.txt)
  grep -Ev '^(#|$)' lexicon/extra-words.txt
} | LC_ALL=C sort -u > lexicon/words.txt.new
mv lexicon/words.txt.new lexicon/words.txt
wc -l lexicon/words.txt
