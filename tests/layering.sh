#!/bin/sh
# The layering rule (docs/GUIDE.md, "Layout"): lua/ -> sim/ -> models/, never
# upwards.  Fails on any file of a layer that includes a header of a higher
# layer, or, below the layer that binds them, SimGrid's or Lua's headers.
# Usage: tests/layering.sh [SRCDIR]   (default $MMSIM_SRCDIR, else .)
# Links enforce the same for calls: the unit tests link models/ alone and
# the engine tests sim/ and models/ without lua/.
set -u
top=${1:-${MMSIM_SRCDIR:-.}}
bad=0

# rank LAYER: models 0, sim 1, lua 2.
rank() {
	case $1 in
	models) echo 0 ;;
	sim) echo 1 ;;
	lua) echo 2 ;;
	*) echo -1 ;;
	esac
}

for layer in models sim lua; do
	own=$(rank $layer)
	for f in "$top/$layer"/*.c "$top/$layer"/*.h; do
		[ -f "$f" ] || continue
		rel=${f#"$top"/}
		# "file:line:header" for every quoted or bracketed include
		grep -n '^[[:space:]]*#[[:space:]]*include' "$f" |
			sed -n 's/^\([0-9]*\):[^"<]*["<]\([^">]*\)[">].*/\1 \2/p' > "${TMPDIR:-/tmp}/layering.$$"
		while read -r line hdr; do
			case $hdr in
			simgrid/*|simgrid.h) target=sim ;;       # only sim/ may drive SimGrid
			lua.h|lauxlib.h|lualib.h|luaconf.h) target=lua ;;
			*/*) target=${hdr%%/*} ;;
			*) target=$layer ;;                       # same folder
			esac
			[ "$target" = .. ] && { echo "$rel:$line: relative include \"$hdr\": name the layer (models/, sim/, lua/)"; bad=1; continue; }
			theirs=$(rank "$target")
			if [ "$theirs" -gt "$own" ]; then
				echo "$rel:$line: $layer/ includes $hdr, a header of the higher layer $target/"
				bad=1
			fi
		done < "${TMPDIR:-/tmp}/layering.$$"
		rm -f "${TMPDIR:-/tmp}/layering.$$"
	done
done
[ $bad -eq 0 ] && echo "layering: no include runs up a layer"
exit $bad
