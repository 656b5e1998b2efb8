/** The many-schools run (`--schools N`) as text, and its checks. */
import { DISMISSAL_MINUTES } from './assemble';
import { n, table } from './format';
import { REGION_POSTS_PER_SECOND } from './schools';
import type { BudgetCheck, SchoolsReport } from './types';

export const checkSchools = (report: SchoolsReport): BudgetCheck[] => {
  const sum = (pick: (school: SchoolsReport['perSchool'][number]) => number) =>
    report.perSchool.reduce((total, school) => total + pick(school), 0);
  const crossed = sum((school) => school.crossed);
  const outside = sum((school) => school.outside);
  const lost = sum((school) => school.lost);
  const unfinished = report.perSchool.filter(
    (school) => school.timedOut || school.leftInQueue !== 0 || school.queued !== school.cars,
  ).length;
  return [
    {
      budget: `No message crosses schools under load (${report.schools} schools' screens, phones, map viewers and drivers check every message)`,
      value: `${crossed} crossed`,
      pass: crossed === 0 && report.schools > 0,
    },
    {
      budget:
        "A teacher screen gets nothing of another classroom's cars, and every staff screen everything it follows",
      value: `${outside} outside a teacher's classrooms, ${lost} lost`,
      pass: outside === 0 && lost === 0,
    },
    {
      budget: 'Every school handled every car',
      value: `${unfinished} of ${report.schools} schools unfinished`,
      pass: unfinished === 0,
    },
  ];
};

export const formatSchools = (report: SchoolsReport, checks: readonly BudgetCheck[]): string => {
  const { plan } = report;
  const out: string[] = [];
  out.push(
    `Curbside: ${report.schools} schools' dismissal rushes at once — scale ${report.scale} (${report.startedAt})`,
  );
  out.push(
    `Each school: ${n(plan.students)} students, ${n(plan.cars)} cars over ${report.arrivalWindowSec} s, ` +
      `${plan.front} front, ${plan.back} back and ${plan.teachers} teacher screens (teachers subscribed to their classrooms), ` +
      `${plan.parents} parents; rushes done in ${report.seconds} s; the server posted ${n(report.serverPosts)} messages ` +
      `(${report.serverPostsPerSecond}/s, every school together)`,
  );
  out.push('');
  out.push(
    table(
      [
        'school',
        'cars',
        'rush s',
        'sockets',
        'posts',
        'events',
        'bus msgs',
        'posts/s as run',
        'posts/s real',
        'lost',
        'outside',
        'crossed',
      ],
      report.perSchool.map((school) => [
        String(school.schoolId),
        `${school.queued}/${school.cars}${school.timedOut ? ' TIMED OUT' : ''}`,
        school.seconds.toFixed(1),
        n(school.sockets),
        n(school.posts),
        n(school.events),
        n(school.busMessages),
        school.postsPerSecond.toFixed(1),
        school.realPostsPerSecond.toFixed(2),
        n(school.lost),
        n(school.outside),
        n(school.crossed),
      ]),
    ),
  );
  const rates = report.perSchool.map((school) => school.postsPerSecond);
  const real = report.perSchool.map((school) => school.realPostsPerSecond);
  const mean = (list: number[]) => list.reduce((sum, v) => sum + v, 0) / Math.max(1, list.length);
  const asRun = mean(rates);
  const atReal = mean(real);
  out.push('');
  const compressed = (DISMISSAL_MINUTES * 60) / Math.max(1, report.arrivalWindowSec);
  out.push(
    `Posts per second per school: ${asRun.toFixed(1)} as run (its ${n(plan.cars)} cars over ${report.arrivalWindowSec} s, ` +
      `a ${DISMISSAL_MINUTES}-minute dismissal compressed ${compressed.toFixed(0)}×: every school's busiest moment at once), ${atReal.toFixed(2)} over a real ` +
      "30-minute dismissal (its events spread over it, one bus message per map screen per second as measured, every socket's pong every 30 s).",
  );
  out.push(
    `API Gateway's default quota, ${n(REGION_POSTS_PER_SECOND)} WebSocket posts a second per region, serves about ` +
      `${n(asRun > 0 ? REGION_POSTS_PER_SECOND / asRun : 0)} schools of this size rushing at the same moment, or ` +
      `${n(atReal > 0 ? REGION_POSTS_PER_SECOND / atReal : 0)} dismissing over the same half hour.`,
  );
  out.push('');
  out.push('Checks');
  out.push('══════');
  for (const check of checks) out.push(`${check.pass ? 'PASS' : 'FAIL'}  ${check.budget}: ${check.value}`);
  return out.join('\n');
};
