#!/usr/bin/env bash
# /tmp/pairs16.sh START END ENVSPEC DIR: probe, main run (pmN), probe, arm run (paN with ENVSPEC in DIR); /tmp/pairs16.log
spec=$3 dir=$4
row() { python3 -c "import json;j=json.load(open('/tmp/lr-$1.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['bots_cpu_cores'], j['events_lost'], len(j['disconnects']), j['retransmits_per_s'], j['fault_ticks'], j['unreliable_dropped'])"; }
for i in $(seq $1 $2); do
  /tmp/probe2.sh; t=$(date +%H:%M); /tmp/lr.sh /work/main pm$i
  echo "pm$i $t main $(row pm$i) | $(tail -1 /tmp/probe2.log)" >> /tmp/pairs16.log
  /tmp/probe2.sh; t=$(date +%H:%M); env $spec /tmp/lr.sh $dir pa$i
  echo "pa$i $t $spec $(row pa$i) | $(tail -1 /tmp/probe2.log)" >> /tmp/pairs16.log
done
