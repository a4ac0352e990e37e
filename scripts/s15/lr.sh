#!/usr/bin/env bash
# /tmp/lr.sh DIR TAG [--spread]: one load run in DIR, saves /tmp/lr-TAG.json and /tmp/lr-TAG.log
dir=$1 tag=$2; shift 2
cd "$dir" && scripts/loadrun "$@" --nice-bots 1000 60s 20 >/tmp/lr-$tag.json 2>/tmp/lr-$tag.err
logs=$(sed -n 's/^logs: //p' /tmp/lr-$tag.err)
cp "$logs/server.log" /tmp/lr-$tag.log
