/**
 * The sign-in form's rules, loaded when the form is first sent or once the screen has drawn:
 * they bring zod (20 KB brotli), which the sign-in's first paint does not need.
 */
export { loginSchema } from '@curbside/domain';
