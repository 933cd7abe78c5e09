/** Companies the sandbox tax authority knows: registry number → taxpayer number and name. */
export const SANDBOX_COMPANIES: Record<string, { tin: string; name: string }> = {
  '1234567': { tin: '10001234567', name: 'Жишээ Технологи ХХК' },
  '2345678': { tin: '10002345678', name: 'Sample Trading LLC' },
  '5317878': { tin: '10005317878', name: 'Тэнгэр Медиа ХХК' },
};
