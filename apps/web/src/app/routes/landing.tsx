import { Landing } from '@/features/content/components/landing';

export default function LandingPage() {
  return <Landing />;
}
