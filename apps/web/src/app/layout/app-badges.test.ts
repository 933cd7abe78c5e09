import { describe, expect, it } from 'vitest';
import { detectPlatform } from './app-badges';

describe('app-download badges', () => {
  it('tell iOS, Android and computers apart', () => {
    expect(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(detectPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe('android');
    expect(detectPlatform('Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe('desktop');
  });
});
