import { CHECKS } from './check-catalog.ts';
import { fixOf, type CheckResult, type CheckStatus } from './check-result.ts';
import type { CheckReport } from './run-check.ts';

const MARKS: Record<CheckStatus, string> = {
  pass: 'pass',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'skip',
};

/** `: 13 redirect, 2 noindex not content`, or nothing when every page read is content. */
function describeNotContent(report: CheckReport): string {
  const marked = Object.entries(report.pages.notContent).filter(([, count]) => count > 0);
  return marked.length > 0
    ? ` (not content: ${marked.map(([kind, count]) => `${count} ${kind}`).join(', ')})`
    : '';
}

/** The report as a person reads it in a terminal or a CI log: one line per check, the fix and the evidence under what did not pass. */
export function renderReportText(report: CheckReport): string {
  const lines = [
    `astro-agent-api check ${report.target}`,
    `site ${report.site}; ${report.api.detected ? "astro-agent-api's API found: the contract checks ran" : `no API: ${report.api.reason}`}`,
    `${report.pages.sampled} of ${report.pages.total} pages sampled (${report.pages.sampling}), content pages of ${report.pages.read} read${describeNotContent(report)}`,
    '',
  ];
  let group = '';
  for (const check of report.checks) {
    const definition = CHECKS[check.id];
    if (definition.group !== group) {
      group = definition.group;
      lines.push(`${group}`);
    }
    lines.push(`  ${MARKS[check.status]}  ${check.id}: ${check.message}`);
    const fix = fixOf(check);
    if (fix) lines.push(`        fix: ${fix}`);
    for (const detail of check.status === 'skip' ? [] : check.details)
      lines.push(`        - ${detail}`);
  }
  const { pass, warn, fail, skip } = report.summary;
  lines.push(
    '',
    `${pass} passed, ${fail} failed, ${warn} warned, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`,
    `${report.requests.total} requests, ${report.requests.anonymousQuota} of them counted against this address's anonymous API quota`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JUnit XML for CI: a test suite per group, a test case per check; fail is a <failure>, skip a <skipped>, warn passes with its message in <system-out>. */
export function renderReportJunit(report: CheckReport): string {
  const groups = new Map<string, CheckResult[]>();
  for (const check of report.checks)
    groups.set(CHECKS[check.id].group, [...(groups.get(CHECKS[check.id].group) ?? []), check]);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const suites = [...groups].map(([group, checks]) => {
    const cases = checks.map((check) => {
      const name = `${check.id}: ${CHECKS[check.id].title}`;
      const text = [
        check.message,
        ...(fixOf(check) ? [`fix: ${fixOf(check)}`] : []),
        ...check.details.map((detail) => `- ${detail}`),
      ].join('\n');
      const body =
        check.status === 'fail'
          ? `<failure message="${escapeXml(check.message)}" type="${check.id}">${escapeXml(text)}</failure>`
          : check.status === 'skip'
            ? `<skipped message="${escapeXml(check.message)}"/>`
            : `<system-out>${escapeXml(`${check.status}: ${text}`)}</system-out>`;
      return `    <testcase classname="astro-agent-api.${group}" name="${escapeXml(name)}" time="${seconds(check.durationMs)}">${body}</testcase>`;
    });
    const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
    return [
      `  <testsuite name="${group}" tests="${checks.length}" failures="${count('fail')}" errors="0" skipped="${count('skip')}" time="${seconds(checks.reduce((sum, check) => sum + check.durationMs, 0))}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="astro-agent-api check ${escapeXml(report.target)}" tests="${report.checks.length}" failures="${report.summary.fail}" errors="0" skipped="${report.summary.skip}" time="${seconds(report.durationMs)}" timestamp="${report.startedAt}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** XML 1.0 §2.4 and §3.3.3 — text and attribute values; characters XML 1.0 cannot carry are dropped. */
function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the range XML allows starts among the control characters
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}
