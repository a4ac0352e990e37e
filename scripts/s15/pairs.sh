#!/usr/bin/env bash
# /tmp/pairs.sh START END: probe, main run (sN-m), probe, writer-FIFO run (sN-w)
for i in $(seq $1 $2); do
  p1=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5}')
  t=$(date +%H:%M)
  /tmp/lr.sh /work/main q$i
  r1=$(python3 -c "import json;j=json.load(open('/tmp/lr-q$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'])")
  echo "q$i $t probe $p1 main $r1" >> /tmp/pairs.log
  p2=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5}')
  t=$(date +%H:%M)
  DLMP_WRITER_FIFO=5 /tmp/lr.sh /tmp/lrW w$i
  r2=$(python3 -c "import json;j=json.load(open('/tmp/lr-w$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'])")
  echo "w$i $t probe $p2 wfifo $r2" >> /tmp/pairs.log
done
