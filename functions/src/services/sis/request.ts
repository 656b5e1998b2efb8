/** What an import job was asked to do (kept with the job, read by every run of it). */
export interface ImportRequest {
  cleverDistrictId: string;
  /** The local district (null: a super admin's district import makes a new one). */
  localDistrictId: number | null;
  /** District and school imports: the one record. */
  cleverSchoolId?: string;
  /** Student imports and syncs: the schools, each a Clever school into a local one. */
  schools: Array<{ cleverSchoolId: string; localSchoolId: number }>;
  createMissingClassrooms: boolean;
}
