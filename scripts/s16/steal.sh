#!/usr/bin/env bash
# /tmp/steal.sh: per-second cpu line deltas (user nice sys idle iowait irq softirq steal) to /tmp/steal.log
prev=($(head -1 /proc/stat))
while true; do sleep 1; cur=($(head -1 /proc/stat)); out="$(date +%H:%M:%S)"; for i in 1 2 3 4 5 6 7 8; do out="$out $((cur[i]-prev[i]))"; done; echo "$out" >> /tmp/steal.log; prev=("${cur[@]}"); done
