/**
 * The sign-in form's rules, loaded when the form is first used (a field or a demo account
 * focused) or sent: they bring zod (20 KB brotli), which the sign-in's first paint does not need.
 */
export { loginSchema } from '@curbside/domain';
