#!/usr/bin/env bash
# /tmp/probe2.sh: crossing probe (w1) + mprobe, one line to /tmp/probe2.log
w=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5, $9}')
m=$(/tmp/mprobe/mprobe)
echo "$m | w1 $w" >> /tmp/probe2.log
