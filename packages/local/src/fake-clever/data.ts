import { seededRandom } from '../random';

/**
 * A Clever district as Clever's Data API v3.0 models it, generated from a
 * seed (the same seed, the same district): schools, teachers with one
 * homeroom section each, students in those sections, and their contacts
 * (guardians). The first school's staff include the demo accounts' emails,
 * so single sign-on works on the laptop.
 */
export interface CleverName {
  first: string;
  middle?: string;
  last: string;
}
export interface FakeUser {
  id: string;
  district: string;
  email?: string;
  name: CleverName;
  created: string;
  last_modified: string;
  roles: {
    student?: { school: string; schools: string[]; grade: string; student_number: string; sis_id: string };
    teacher?: { school: string; schools: string[]; teacher_number: string; sis_id: string };
    staff?: { schools: string[]; title: string };
    district_admin?: Record<string, never>;
    contact?: {
      phone: string;
      phone_type: string;
      sis_id: string;
      student_relationships: Array<{ student: string; relationship: string; type: string }>;
    };
  };
}
export interface FakeSchool {
  id: string;
  district: string;
  name: string;
  sis_id: string;
  school_number: string;
  low_grade: string;
  high_grade: string;
  location: { address: string; city: string; state: string; zip: string };
  created: string;
  last_modified: string;
}
export interface FakeSection {
  id: string;
  district: string;
  school: string;
  name: string;
  grade: string;
  subject: string;
  teacher: string;
  teachers: string[];
  students: string[];
  sis_id: string;
  created: string;
  last_modified: string;
}
export interface FakeCleverData {
  district: { id: string; name: string; state: string; last_sync: string };
  schools: FakeSchool[];
  users: FakeUser[];
  sections: FakeSection[];
}

export interface DistrictOptions {
  schools?: number;
  studentsPerSchool?: number;
  seed?: number;
}

const FIRST = [
  'Ava',
  'Liam',
  'Mia',
  'Noah',
  'Emma',
  'Lucas',
  'Sofia',
  'Mateo',
  'Olivia',
  'Elijah',
  'Amelia',
  'James',
  'Harper',
  'Benjamin',
  'Aria',
  'Henry',
  'Layla',
  'Leo',
  'Chloe',
  'Jack',
  'Zoe',
  'Owen',
  'Nora',
  'Caleb',
  'Grace',
  'Isaac',
  'Lily',
  'Ezra',
  'Maya',
  'Wyatt',
  'Ruby',
  'Miles',
  'Aaliyah',
  'Diego',
  'Hana',
  'Kai',
  'Priya',
  'Omar',
  'Ines',
  'Yusuf',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
];
const GRADES = ['Kindergarten', '1', '2', '3', '4', '5'];
const SCHOOL_NAMES = [
  'Oak Ridge Elementary',
  'Maple Grove Elementary',
  'Cedar Point Elementary',
  'Willow Creek Elementary',
  'Pine Hollow Elementary',
  'Birch Lane Elementary',
  'Riverbend Elementary',
  'Lakeside Elementary',
  'Summit Elementary',
  'Harbor View Elementary',
];
/** The demo accounts of the laptop seed, as staff of the first school (their emails match the seed's). */
export const DEMO_STAFF = [
  { first: 'Taylor', last: 'Teacher', email: 'teacher_demo@curbside.example', role: 'teacher' as const },
  { first: 'Alex', last: 'Admin', email: 'admin_demo@curbside.example', role: 'staff' as const },
  { first: 'Frankie', last: 'Front', email: 'front_demo@curbside.example', role: 'staff' as const },
  {
    first: 'Dana',
    last: 'District',
    email: 'district_demo@curbside.example',
    role: 'district_admin' as const,
  },
];

const STAMP = '2026-08-01T12:00:00.000Z';

export const generateDistrict = (options: DistrictOptions = {}): FakeCleverData => {
  const schoolCount = options.schools ?? 3;
  const perSchool = options.studentsPerSchool ?? 500;
  const next = seededRandom(options.seed ?? 1);
  let counter = 0;
  // Clever ids are 24 hex characters; ascending with creation, as paging expects.
  const id = () => (0x5f00000000 + ++counter).toString(16).padStart(24, '0');
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const districtId = id();
  const district = {
    id: districtId,
    name: 'Curbside Demo District (Clever)',
    // Clever's v3.0 district `state` is its data sync's status, not a US state (those are on schools).
    state: 'success',
    last_sync: STAMP,
  };
  const schools: FakeSchool[] = [];
  const users: FakeUser[] = [];
  const sections: FakeSection[] = [];
  const person = (name: CleverName, roles: FakeUser['roles'], email?: string): FakeUser => {
    const user: FakeUser = {
      id: id(),
      district: districtId,
      name,
      roles,
      created: STAMP,
      last_modified: STAMP,
    };
    if (email) user.email = email;
    users.push(user);
    return user;
  };
  for (let s = 0; s < schoolCount; s++) {
    const school: FakeSchool = {
      id: id(),
      district: districtId,
      name: SCHOOL_NAMES[s % SCHOOL_NAMES.length] + (s >= SCHOOL_NAMES.length ? ` ${s + 1}` : ''),
      sis_id: `SCH-${s + 1}`,
      school_number: String(100 + s),
      low_grade: 'Kindergarten',
      high_grade: '5',
      location: { address: `${100 + s} Main Street`, city: 'St. Augustine', state: 'FL', zip: '32084' },
      created: STAMP,
      last_modified: STAMP,
    };
    schools.push(school);
    if (s === 0) {
      for (const staff of DEMO_STAFF) {
        const roles: FakeUser['roles'] =
          staff.role === 'teacher'
            ? {
                teacher: {
                  school: school.id,
                  schools: [school.id],
                  teacher_number: 'T-DEMO',
                  sis_id: 'T-DEMO',
                },
              }
            : staff.role === 'district_admin'
              ? { district_admin: {} }
              : { staff: { schools: [school.id], title: 'Staff' } };
        person({ first: staff.first, last: staff.last }, roles, staff.email);
      }
    }
    const classCount = Math.max(1, Math.round(perSchool / 20));
    for (let c = 0; c < classCount; c++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const number = `T-${s + 1}-${c + 1}`;
      const teacher = person(
        { first, last },
        { teacher: { school: school.id, schools: [school.id], teacher_number: number, sis_id: number } },
        `${first}.${last}.${s + 1}${c + 1}@oakridge.example.org`.toLowerCase(),
      );
      const grade = GRADES[c % GRADES.length] as string;
      sections.push({
        id: id(),
        district: districtId,
        school: school.id,
        name: `Homeroom ${grade === 'Kindergarten' ? 'K' : grade}-${String.fromCharCode(65 + Math.floor(c / GRADES.length))} (${last})`,
        grade,
        subject: 'homeroom/advisory',
        teacher: teacher.id,
        teachers: [teacher.id],
        students: [],
        sis_id: `SEC-${s + 1}-${c + 1}`,
        created: STAMP,
        last_modified: STAMP,
      });
    }
    const schoolSections = sections.filter((section) => section.school === school.id);
    for (let n = 0; n < perSchool; n++) {
      const section = schoolSections[n % schoolSections.length] as FakeSection;
      const last = pick(LAST);
      const number = `${s + 1}${String(n + 1).padStart(5, '0')}`;
      const student = person(
        { first: pick(FIRST), middle: pick(FIRST).slice(0, 1), last },
        {
          student: {
            school: school.id,
            schools: [school.id],
            grade: section.grade,
            student_number: number,
            sis_id: `S-${number}`,
          },
        },
        next() < 0.3 ? `s${number}@students.example.org` : undefined,
      );
      section.students.push(student.id);
      // One guardian, sometimes two.
      const guardians = next() < 0.35 ? 2 : 1;
      for (let g = 0; g < guardians; g++) {
        const first = pick(FIRST);
        const phone = `904555${String(Math.floor(next() * 10_000)).padStart(4, '0')}`;
        person(
          { first, last: g === 0 ? last : pick(LAST) },
          {
            contact: {
              phone,
              phone_type: 'Cell',
              sis_id: `C-${number}-${g + 1}`,
              student_relationships: [
                {
                  student: student.id,
                  relationship: g === 0 ? 'Parent' : 'Guardian',
                  type: 'Parent/Guardian',
                },
              ],
            },
          },
          `${first}.${last}.${number}${g}@family.example.org`.toLowerCase(),
        );
      }
    }
  }
  return { district, schools, users, sections };
};
