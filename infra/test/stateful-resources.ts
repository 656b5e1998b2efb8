/**
 * The stateful resources of the stack (data, secrets, buckets, queues, log groups, keys) and
 * their logical IDs, as main synthesized them at 22c630e (with Clever, WebSocket access logs
 * and a custom domain switched on) before the stack was split into constructs. A changed
 * logical ID makes CloudFormation replace the resource: a new, empty table or bucket, a new
 * secret, logs lost. Never edit an entry to make the test pass; add one for a new resource.
 */
export const STATEFUL_RESOURCES: readonly (readonly [logicalId: string, type: string])[] = [
  ['CleverClientSecretBA5369FE', 'AWS::SecretsManager::Secret'],
  ['CleverDistrictTokens12543C5C', 'AWS::SecretsManager::Secret'],
  ['ConnectionTable0C6E1E44', 'AWS::DynamoDB::Table'],
  ['HttpAccessLogs7ADEF396', 'AWS::Logs::LogGroup'],
  ['ImportJobsDeadLetters6738EAA7', 'AWS::SQS::Queue'],
  ['MailSenderDeadLettersC497CE88', 'AWS::SQS::Queue'],
  ['OperationsAlarmTopicKey52078457', 'AWS::KMS::Key'],
  ['OriginSecret5DDC59F1', 'AWS::SecretsManager::Secret'],
  ['OriginSecretRotationDeadLettersEE2F8ECA', 'AWS::SQS::Queue'],
  ['SiteBucket978D4AEB', 'AWS::S3::Bucket'],
  ['SiteDeployLogs5AEACD43', 'AWS::Logs::LogGroup'],
  ['SiteLogBucket150DDC0F', 'AWS::S3::Bucket'],
  ['TableCD117FA1', 'AWS::DynamoDB::Table'],
  ['WebSocketAccessLogs7FFF6977', 'AWS::Logs::LogGroup'],
  ['httpadminLogsF9A4DF47', 'AWS::Logs::LogGroup'],
  ['httpauthLogsC2B6213E', 'AWS::Logs::LogGroup'],
  ['httpbusLogs9BB02299', 'AWS::Logs::LogGroup'],
  ['httpcarLineLogsD2606931', 'AWS::Logs::LogGroup'],
  ['httpparentLogs9D574EA1', 'AWS::Logs::LogGroup'],
  ['httpsisLogsEADAD364', 'AWS::Logs::LogGroup'],
  ['httpteacherLogsA0B34997', 'AWS::Logs::LogGroup'],
  ['importjobsLogsC38CFE9E', 'AWS::Logs::LogGroup'],
  ['mailsenderLogsCEBEBFB0', 'AWS::Logs::LogGroup'],
  ['rotateoriginsecretLogs08CC6AB0', 'AWS::Logs::LogGroup'],
  ['scheduledLogs53A37558', 'AWS::Logs::LogGroup'],
  ['wsLogs88E61220', 'AWS::Logs::LogGroup'],
];
