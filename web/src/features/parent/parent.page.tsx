import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useParentTexts } from './i18n';
import { ParentLayout } from './parent-layout';

/** `/parent`: the parent portal's landing, with the way in. */
export function ParentPortalPage() {
  const { t } = useParentTexts();
  return (
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1}>{t('portal.title')}</Title>
          <Text fz="lg">{t('portal.intro')}</Text>
          <Button component={Link} to="/parent-login" size="lg" fullWidth>
            {t('portal.signIn')}
          </Button>
        </Stack>
      </Card>
    </ParentLayout>
  );
}
