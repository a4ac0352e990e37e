#!/usr/bin/env bash
# /tmp/pairsR.sh START END: hack branch, writer FIFO (rwN) vs writer+reader FIFO (rrN); /tmp/pairsR.log
row() { python3 -c "import json;j=json.load(open('/tmp/lr-$1.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['bots_cpu_cores'], j['events_lost'], len(j['disconnects']), j['retransmits_per_s'], j['fault_ticks'], j['unreliable_dropped'], j['bot_rtt_p50_ms'], j['bot_rtt_p99_ms'])"; }
for i in $(seq $1 $2); do
  /tmp/probe2.sh; t=$(date +%H:%M); DLMP_WRITER_FIFO=5 /tmp/lr.sh /work/wt/wfifo rw$i
  echo "rw$i $t writer $(row rw$i) | $(tail -1 /tmp/probe2.log)" >> /tmp/pairsR.log
  /tmp/probe2.sh; t=$(date +%H:%M); DLMP_WRITER_FIFO=5 DLMP_READER_FIFO=4 /tmp/lr.sh /work/wt/wfifo rr$i
  echo "rr$i $t writer+reader $(row rr$i) | $(tail -1 /tmp/probe2.log)" >> /tmp/pairsR.log
done
