import { requirePageUser } from "@/app/_lib/auth";
import { PoliciesView } from "@/components/policies/policies-view";

export const metadata = { title: "Policies" };

export default async function PoliciesPage() {
  const user = await requirePageUser("ADMIN", "/policies");
  return <PoliciesView currentUserId={user.id} />;
}
