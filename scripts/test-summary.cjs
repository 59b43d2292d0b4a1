// Sums the JSON reports of the test runs into one plain closing line, "N passed, N failed, N skipped", and exits 1
// on any failure. A missing or unreadable report counts as one failure: a runner that crashed must not look green.
const fs = require('node:fs');
let passed = 0;
let failed = 0;
let skipped = 0;
// CI keeps only the tail of the output: name each failure just above the closing line, so it is never lost.
const failures = [];
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`test-summary: no usable report ${file} (${err.code ?? err.message}); counted as a failure`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that failed to load (syntax error, crash) has no failed tests of its own: count it.
  for (const suite of report.testResults ?? []) {
    const where = require('node:path').relative(process.cwd(), suite.name ?? '?');
    for (const a of suite.assertionResults ?? []) {
      if (a.status === 'failed') failures.push(`${file}: ${where} > ${a.fullName ?? a.title}: ${firstLine(a.failureMessages)}`);
    }
    if (suite.status === 'failed' && (suite.assertionResults ?? []).every((a) => a.status !== 'failed')) {
      failed += 1;
      failures.push(`${file}: ${where} did not run: ${firstLine([suite.message])}`);
    }
  }
  if (report.success === false && (report.numFailedTests ?? 0) === 0 && (report.numFailedTestSuites ?? 0) === 0) failed += 1;
}
for (const line of failures) console.log(`FAILED ${line}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);

function firstLine(messages) {
  const text = (messages ?? []).find((m) => typeof m === 'string' && m.trim()) ?? '';
  return text.trim().split('\n')[0].slice(0, 300);
}
