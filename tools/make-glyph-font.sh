#!/usr/bin/env bash
# Rebuilds static/fonts/jungle-glyphs.woff2: the few CJK glyphs the board draws, cut from
# Noto Serif CJK SC Bold (SIL Open Font License 1.1, see static/fonts/OFL.txt), so pieces look
# the same on machines without CJK fonts. Needs Debian's fonts-noto-cjk and `pip install fonttools brotli`.
set -euo pipefail
cd "$(dirname "$0")/.."
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc \
    --font-number=2 \
    --text="象狮虎豹狼狗猫鼠阱穴斗兽棋" \
    --flavor=woff2 \
    --layout-features='' \
    --no-hinting \
    --desubroutinize \
    --name-IDs='*' \
    --output-file=static/fonts/jungle-glyphs.woff2
ls -l static/fonts/jungle-glyphs.woff2
