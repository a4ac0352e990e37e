#!/usr/bin/env bash
# /tmp/hz.sh START END: mprobe, main at 50 Hz (hN-50), mprobe, main at 100 Hz (hN-100); /tmp/hz.log
for i in $(seq $1 $2); do
  for hz in 50 100; do
    p=$(/tmp/mprobe/mprobe)
    t=$(date +%H:%M)
    TICK_HZ=$hz /tmp/lr.sh /work/main h$i-$hz
    r=$(python3 -c "import json;j=json.load(open('/tmp/lr-h$i-$hz.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['events_lost'], len(j['disconnects']), j['retransmits_per_s'], j['per_player_bytes_out_s'])")
    echo "h$i-$hz $t run(p50,p99,cores,lost,disc,rtx,Bout) $r | $p" >> /tmp/hz.log
  done
done
