/** The password of people the tests make unless they say otherwise. */
export const testPassword = 'correct horse battery staple';
