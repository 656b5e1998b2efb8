import type { ImportJob } from '@curbside/domain';
import { Card, Container, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { DistrictStep } from './district-step';
import { JobPanel } from './job-panel';
import { SchoolStep } from './school-step';
import { sisQueries, useStartImport } from './sis.queries';
import { StudentsStep } from './students-step';

/**
 * The student-information import page (specification §2): three steps —
 * select the Clever district, select a school, preview its students (the
 * first 10 and the total) and import them. Each import is a job: the page
 * follows it (its id in the address, so a reload keeps following) with a
 * progress bar and, when it is done, what it created, updated and deactivated.
 */
export function CleverIntegrationPage() {
  const { user } = useMe();
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const [step, setStep] = useState(0);
  const [districtId, setDistrictId] = useState<string | null>(null);
  const [schoolId, setSchoolId] = useState<string | null>(null);
  const [localDistrict, setLocalDistrict] = useState(String(user?.districtId ?? ''));
  const [localSchool, setLocalSchool] = useState('');
  const [createClassrooms, setCreateClassrooms] = useState(true);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  const follow = (job: ImportJob) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('job', job.id);
      return next;
    });
    if (job.kind === 'school' && job.schoolId) setLocalSchool(String(job.schoolId));
  };
  const start = useStartImport(follow);
  // The school a school import made is the natural target of its students.
  const followed = useQuery({ ...sisQueries.job(jobId ?? ''), enabled: jobId !== null });
  // Once per job, so that the field can still be emptied or changed: the school a school
  // import made, or (after a reload) the one a student import went into when the field is empty.
  const prefilled = useRef<string | null>(null);
  useEffect(() => {
    const job = followed.data;
    if (!job?.schoolId || prefilled.current === job.id) return;
    if (job.kind !== 'school' && job.kind !== 'students') return;
    prefilled.current = job.id;
    const id = String(job.schoolId);
    setLocalSchool((current) => (job.kind === 'school' || current === '' ? id : current));
  }, [followed.data]);

  return (
    <Container size="lg" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Student Information Import</Title>
          <Text c={MUTED_TEXT}>Import districts, schools and students from Clever.</Text>
        </div>
        {jobId ? <JobPanel id={jobId} /> : null}
        <Card p={{ base: 'md', sm: 'xl' }}>
          <Stepper
            orientation={phone ? 'vertical' : 'horizontal'}
            active={step}
            onStepClick={setStep}
            size="sm"
            allowNextStepsSelect={false}
            styles={{ stepDescription: { color: 'var(--mantine-color-dimmed)' } }}
          >
            <Stepper.Step label="Select District" description="A Clever district">
              <DistrictStep
                selected={districtId}
                onSelect={(id) => {
                  setDistrictId(id);
                  setSchoolId(null);
                }}
                importing={start.isPending}
                onImport={() =>
                  districtId && start.mutate({ step: 'district', cleverDistrictId: districtId })
                }
                onNext={() => setStep(1)}
              />
            </Stepper.Step>
            <Stepper.Step label="Select School" description="One of its schools">
              {districtId ? (
                <SchoolStep
                  districtId={districtId}
                  selected={schoolId}
                  onSelect={setSchoolId}
                  localDistrict={localDistrict}
                  onLocalDistrict={setLocalDistrict}
                  importing={start.isPending}
                  onImport={() =>
                    schoolId &&
                    start.mutate({
                      step: 'school',
                      cleverSchoolId: schoolId,
                      // Specification §5: 1 when the field cannot be read as a number.
                      localDistrictId: Number.parseInt(localDistrict, 10) || 1,
                    })
                  }
                  onBack={() => setStep(0)}
                  onNext={() => setStep(2)}
                />
              ) : null}
            </Stepper.Step>
            <Stepper.Step label="Preview and Import" description="The school’s students">
              {schoolId ? (
                <StudentsStep
                  schoolId={schoolId}
                  localSchool={localSchool}
                  onLocalSchool={setLocalSchool}
                  createClassrooms={createClassrooms}
                  onCreateClassrooms={setCreateClassrooms}
                  importing={start.isPending}
                  onImport={() =>
                    start.mutate({
                      step: 'students',
                      cleverSchoolId: schoolId,
                      localSchoolId: Number.parseInt(localSchool, 10),
                      createMissingClassrooms: createClassrooms,
                    })
                  }
                  onBack={() => setStep(1)}
                />
              ) : null}
            </Stepper.Step>
          </Stepper>
        </Card>
      </Stack>
    </Container>
  );
}
