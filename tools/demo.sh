#!/bin/sh
# The main job on the bundled corpus (make demo). Each section runs a real
# ftv command; later sections are added as the project grows.
set -eu
: "${FTV:=build/ftv}"
echo "== ftv: $($FTV version)"
