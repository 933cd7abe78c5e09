/**
 * The routes of product.md §2 (fixed by the spec, so listed here rather than parsed out of the
 * router's code), the page that sets a new password, and one unknown path.
 */
export function siteRoutes() {
  return [
    '/',
    '/premium',
    '/invite',
    '/profile',
    '/profile-edit',
    '/success',
    '/failed',
    '/help',
    '/help/faq',
    '/help/tos',
    '/login',
    '/contact',
    '/phoneauth',
    '/reset-password',
    '/no-such-page',
  ];
}
