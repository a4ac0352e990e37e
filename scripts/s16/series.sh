#!/usr/bin/env bash
# /tmp/series.sh START END PAUSE: probe + load run of main, tags sN; log in /tmp/series.log
for i in $(seq $1 $2); do
  probe=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5, $9}')
  t=$(date +%H:%M)
  /tmp/lr.sh /work/main s$i
  p99=$(python3 -c "import json;j=json.load(open('/tmp/lr-s$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'])")
  echo "s$i $t probe(cpu-ms,p99) $probe run(p50,p99,cores) $p99" >> /tmp/series.log
  sleep $3
done
