// `npm run bench:dashboard`: only the dashboard figures of `npm run bench` (weight, time to interactive).
import { runDashboardBench } from './dashboard-bench.js';

const result = await runDashboardBench(Number(process.argv[2] ?? 15));
const { sizes, interactiveMs } = result;
process.stdout.write(
  `${JSON.stringify({ firstLoadGzipBytes: sizes?.firstLoadGzipBytes, largestChunk: sizes?.largestChunk, interactiveMs }, null, 2)}\n`,
);
