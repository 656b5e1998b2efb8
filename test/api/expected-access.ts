import type { RouteName } from '@curbside/api';

/**
 * What every caller must get from every route, written by hand from the
 * specification's route table (§2, §7), its permission matrix (§6) and
 * DESIGN.md's rules (tenancy, sandbox read-only), never computed from the
 * code under test. A route missing here fails the type check.
 *
 * - `ok`: let through by the access check (then validation or lookup answer;
 *   never 401, the permission message, or a 5xx)
 * - `401`: not signed in
 * - `403`: not allowed (rank, role or data-permission matrix)
 * - `RO`: refused because the caller's school is in sandbox mode (403, read-only message)
 * - `own`: a student's route, let through for a student of a classroom the
 *   caller teaches and refused (403, the route's own message) for any other
 *   student of the school (issue 49: staff below school admin reach only
 *   their own classrooms' families)
 */
export type Outcome = 'ok' | 401 | 403 | 'RO' | 'own';

/** The callers, in column order: signed out, the demo accounts, then staff of the sandboxed school. */
export const CALLERS = [
  null,
  'parent_demo',
  'front_demo',
  'back_demo',
  'teacher_demo',
  'admin_demo',
  'district_demo',
  'super_demo',
  'sandbox_front_queue_wrangler',
  'sandbox_teacher',
  'sandbox_school_admin',
] as const;
export type Caller = (typeof CALLERS)[number];

type Row = readonly [
  anonymous: Outcome,
  parent: Outcome,
  front: Outcome,
  back: Outcome,
  teacher: Outcome,
  schoolAdmin: Outcome,
  districtAdmin: Outcome,
  superAdmin: Outcome,
  sandboxFront: Outcome,
  sandboxTeacher: Outcome,
  sandboxAdmin: Outcome,
];

const ok = 'ok';
const RO = 'RO';
const own = 'own';

// biome-ignore format: the table is read as a table
export const EXPECTED_ACCESS: Readonly<Record<RouteName, Row>> = {
  //                     anon  parent front back  teach admin distr super | sb:front sb:teach sb:admin
  health:               [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  login:                [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  logout:               [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  me:                   [401,  ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // Setting one's own password (after a one-time password) is no change to the school: open in sandbox mode.
  changePassword:       [401,  ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  parentLogin:          [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  parentRegister:       [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // "Forgot password?" (issue 50): open to anyone, like registration (a parent who cannot sign in asks).
  forgotParentPassword: [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  resetParentPassword:  [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  authLogout:           [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  ssoLogin:             [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  ssoCallback:          [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],

  // Running a dismissal: every staff role of the school; sandboxed schools read only.
  activeSession:        [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  listSessions:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // The record's reports: school admins and above (a district admin has no school of their own: 404, not 403).
  sessionReport:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  sessionReportCsv:     [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  sessionEvents:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  createSession:        [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  listQueue:            [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  sessionReleases:      [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  addToQueue:           [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  removeFromQueue:      [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  restoreQueueEntry:    [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  setQueueStatus:       [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  updateQueueEntry:     [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  createAlert:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  listAlerts:           [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  dismissAlert:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  // "I'm on it" (issue 27): any staff of the school, like dismissing; a change, so read-only in sandbox mode.
  acknowledgeAlert:     [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  activeBatches:        [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  listBatches:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createBatch:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  updateBatch:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  batchVehicles:        [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  addToBatch:           [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],

  // Ending a session ends the school's dismissal on every screen: back queue staff and above
  // (END_SESSION_MIN_ROLE: front queue staff add cars at the entrance and cannot see that the line is empty).
  endSession:           [401,  403,   403,  ok,   ok,   ok,   ok,   ok,     403,     RO,      RO],

  // School records read by every staff screen.
  getSchool:            [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  getDistrict:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  listUsers:            [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  listClassrooms:       [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  listSchools:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],

  // Districts (issue 17): district admins their own, super admins all. Only the super admin
  // creates districts and switches them (and any school); a district admin switches their schools.
  listDistricts:        [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  districtSchools:      [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  districtUsers:        [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  districtDismissals:   [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  districtReport:       [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  // Edit District (issue 50, item 13): a district admin their own, the super admin any.
  updateDistrict:       [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  createDistrict:       [401,  403,   403,  403,  403,  403,  403,  ok,     403,     403,     403],
  createSchool:         [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  patchSchoolSandbox:   [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  putSchoolSandbox:     [401,  403,   403,  403,  403,  403,  403,  ok,     403,     403,     403],
  putDistrictSandbox:   [401,  403,   403,  403,  403,  403,  403,  ok,     403,     403,     403],
  // A school's settings (issue 32): school admins and above; a sandboxed school's are read-only.
  getSchoolSettings:    [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  // Export Data (issue 50, item 13): a read of the school's records, school admins and above.
  schoolExport:         [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  putSchoolSettings:    [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  createStaff:          [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  setUserActive:        [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],

  // The school admin screen's summary: school admins and above.
  schoolSummary:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],

  // Rosters (§6 data-permission matrix): every staff role reads; admins create,
  // update, delete and import; teachers only update; wranglers and parents read
  // only (parents not even that: a school's roster is staff data); sandboxed
  // schools read-only.
  listStudents:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createStudent:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateStudent:        [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  deleteStudent:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  exportStudent:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  eraseStudent:         [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  listTeachers:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createTeacher:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateTeacher:        [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  deleteTeacher:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  listParents:          [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createParent:         [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateParent:         [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  deleteParent:         [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  listVehicles:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createVehicle:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateVehicle:        [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  deleteVehicle:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  createClassroom:      [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateClassroom:      [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  deleteClassroom:      [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  classroomStudentCount:[401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  importRoster:         [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],

  // The teacher screen's rank: teacher and above.
  teacherStudents:      [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  readyStudents:        [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  releaseStudent:       [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  studentPickups:       [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  // Pickup codes (issue 49): a teacher only for the students of their own classrooms, admins for any.
  generatePickupCode:   [401,  403,   403,  403,  own,  ok,   ok,   ok,     403,     RO,      RO],
  studentPickupCode:    [401,  403,   403,  403,  own,  ok,   ok,   ok,     403,     own,     ok],
  newStudentPickupCode: [401,  403,   403,  403,  own,  ok,   ok,   ok,     403,     RO,      RO],

  // Invite links: the lookup is public, linking is for parents only.
  lookupPickupCode:     [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  usePickupCode:        [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  linkStudent:          [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  parentStudents:       [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  parentStudentStatus:  [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  // Parent invites (issue 29): teachers for their classrooms, school admins and above; sandboxed schools read only.
  createParentInvites:  [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  listParentInvites:    [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  revokeParentInvite:   [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  emailParentInvites:   [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  // Following an emailing's progress is a read: open in sandbox mode too.
  getParentInviteEmailRun: [401, 403, 403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  // An invite link is its own key: open to anyone (accepting needs a parent, or makes one).
  lookupParentInvite:   [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  acceptParentInvite:   [ok,   ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // Authorized pickups: the family edits, every staff role of the school reads.
  parentAuthorizedPickups: [401, ok,  403,  403,  403,  403,  403,  403,    403,     403,     403],
  addAuthorizedPickup:  [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  deleteAuthorizedPickup: [401, ok,   403,  403,  403,  403,  403,  403,    403,     403,     403],
  studentAuthorizedPickups: [401, 403, ok,  ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  studentsAuthorizedPickups: [401, 403, ok, ok,  ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // Every way home (issue 51): every staff role of the school reads programs, plans and the day's
  // plan; school admins and above write programs and weekly plans (the data matrix: school records).
  listPrograms:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  createProgram:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  updateProgram:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  deleteProgram:        [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  wayOptions:           [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  getDismissalPlan:     [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  putDismissalPlan:     [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  dayPlan:              [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // A student's history: the teacher screen's rank, as their pickups.
  studentWayHistory:    [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     ok,      ok],
  // Dated changes: a parent for their own children (the service keeps them to those), the office
  // (school admins and above) enters and decides; every staff role reads the day's changes.
  createDismissalChange: [401, ok,    403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  listDismissalChanges: [401,  ok,    ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  approveDismissalChange: [401, 403,  403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  denyDismissalChange:  [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  cancelDismissalChange: [401, ok,    403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  parentWaysHome:       [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  // Arrivals (issue 53): a parent announces their own; the school's staff read the session's, like the queue.
  announceArrival:      [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  parentArrivals:       [401,  ok,    403,  403,  403,  403,  403,  403,    403,     403,     403],
  listArrivals:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // The dismissal by way home (issue 52): releases in one press at the teacher screen's rank, as a
  // release; a bus's riders and a program's list read by every staff role; any staff role checks a
  // child in at a program (running a dismissal, like the queue: read-only in sandbox mode).
  releaseWalkers:       [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  releaseBusRiders:     [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  releaseToProgram:     [401,  403,   403,  403,  ok,   ok,   ok,   ok,     403,     RO,      RO],
  busRiders:            [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  programStudents:      [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  checkInProgramStudent: [401, 403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  undoProgramCheckIn:   [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     RO,      RO,      RO],
  busLinks:             [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  rotateBusLinks:       [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  // The hallway display's link (issue 32): like the bus links.
  displayLink:          [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     ok],
  rotateDisplayLink:    [401,  403,   403,  403,  403,  ok,   ok,   ok,     403,     403,     RO],
  busFleet:             [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  busContact:           [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  busPositions:         [401,  403,   ok,   ok,   ok,   ok,   ok,   ok,     ok,      ok,      ok],
  // The student-information import page's minimum is district_admin (spec §2 route table).
  sisDistricts:         [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  // Which Clever district a district imports from is the super admin's to assign (issue 25).
  sisAssignments:       [401,  403,   403,  403,  403,  403,  403,  ok,     403,     403,     403],
  sisAssignDistrict:    [401,  403,   403,  403,  403,  403,  403,  ok,     403,     403,     403],
  sisSchools:           [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  sisPreviewStudents:   [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  sisImportDistrict:    [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  sisImportSchool:      [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  sisImportStudents:    [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  getImportJob:         [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
  resumeImportJob:      [401,  403,   403,  403,  403,  403,  ok,   ok,     403,     403,     403],
};

/**
 * The routes that create, update, delete or import the school's records
 * (districts, schools, users, classrooms, students, vehicles, imports) and
 * which of those they do, written from the specification's data-permission
 * matrix: each must declare it on its route (`access.data`), so the matrix
 * governs it; every other route declares none. (Running a dismissal —
 * sessions, queue, batches, alerts — is not governed by it, DESIGN.md says.)
 * A route added here or there without the other fails permissions.test.ts.
 */
export const RECORD_CHANGES: Readonly<Partial<Record<RouteName, 'create' | 'update' | 'delete' | 'import'>>> =
  {
    // A new pickup code changes how the student's parents may link: an update of the student.
    generatePickupCode: 'update',
    newStudentPickupCode: 'update',
    // So does a parent invite (issue 29).
    createParentInvites: 'update',
    revokeParentInvite: 'update',
    emailParentInvites: 'update',
    // The school's rosters (issue 14).
    createStudent: 'create',
    updateStudent: 'update',
    deleteStudent: 'delete',
    // Issue 55: erasing a student's data deletes it.
    eraseStudent: 'delete',
    createTeacher: 'create',
    updateTeacher: 'update',
    deleteTeacher: 'delete',
    createParent: 'create',
    updateParent: 'update',
    deleteParent: 'delete',
    createVehicle: 'create',
    updateVehicle: 'update',
    deleteVehicle: 'delete',
    createClassroom: 'create',
    updateClassroom: 'update',
    deleteClassroom: 'delete',
    importRoster: 'import',
    // Districts, schools and their staff (issue 17).
    createDistrict: 'create',
    createSchool: 'create',
    patchSchoolSandbox: 'update',
    putSchoolSandbox: 'update',
    putDistrictSandbox: 'update',
    updateDistrict: 'update',
    putSchoolSettings: 'update',
    createStaff: 'create',
    setUserActive: 'update',
    // After-school programs and students' weekly plans (issue 51).
    createProgram: 'create',
    updateProgram: 'update',
    deleteProgram: 'delete',
    putDismissalPlan: 'update',
    // The student-information (Clever) import (issue 18).
    sisAssignDistrict: 'update',
    sisImportDistrict: 'import',
    sisImportSchool: 'import',
    sisImportStudents: 'import',
    resumeImportJob: 'import',
  };

/**
 * The specification's data-permission matrix (§6), by hand: who may create,
 * update, delete and import the school's records. Parents, wranglers,
 * unknown roles and missing users: nothing.
 */
export const DATA_MATRIX: Readonly<Record<string, readonly string[]>> = {
  super_admin: ['create', 'update', 'delete', 'import'],
  district_admin: ['create', 'update', 'delete', 'import'],
  school_admin: ['create', 'update', 'delete', 'import'],
  teacher: ['update'],
  back_queue_wrangler: [],
  front_queue_wrangler: [],
  parent: [],
};

/** The outcome the table gives a caller for a route. */
export const expectedAccess = (route: RouteName, caller: Caller): Outcome =>
  (EXPECTED_ACCESS[route] as Row)[CALLERS.indexOf(caller)] as Outcome;

/**
 * What a user signed in with a one-time password may call before choosing
 * their own (issue 25): these routes answer them as any signed-in user; the
 * routes open to everyone (the signed-out column's `ok`: sign-in, sign-out,
 * health, …) stay open; every other route answers 403 with the one-time
 * password message, whatever the role.
 */
export const BEFORE_OWN_PASSWORD: ReadonlySet<RouteName> = new Set<RouteName>(['me', 'changePassword']);

/** The outcome for a user who has not yet replaced their one-time password: `ok`, or 403 (`MUST_CHANGE_PASSWORD`). */
export const expectedBeforeOwnPassword = (route: RouteName): 'ok' | 403 =>
  BEFORE_OWN_PASSWORD.has(route) || expectedAccess(route, null) === 'ok' ? 'ok' : 403;
