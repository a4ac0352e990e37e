#!/usr/bin/env bash
# /tmp/series2.sh START END: probe2 + load run of main (tags tN); /tmp/series2.log
for i in $(seq $1 $2); do
  /tmp/probe2.sh; p=$(tail -1 /tmp/probe2.log)
  t=$(date +%H:%M)
  /tmp/lr.sh /work/main t$i
  r=$(python3 -c "import json;j=json.load(open('/tmp/lr-t$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['events_lost'], len(j['disconnects']), j['retransmits_per_s'], j['minor_faults_per_s'], j['fault_ticks'])")
  echo "t$i $t run(p50,p99,cores,lost,disc,rtx,flt/s,fticks) $r | $p" >> /tmp/series2.log
done
