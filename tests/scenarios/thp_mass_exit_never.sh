#!/bin/sh
# thp_mass_exit.lua with THP never: the same exit frees every data page as
# a single page (see the script's header).
exec "$MMSIM" -D thp=never "$MMSIM_SRCDIR/tests/scenarios/thp_mass_exit.lua"
