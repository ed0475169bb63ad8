import { requirePageUser } from "@/app/_lib/auth";
import { PageHeader } from "@/components/page-header";
import { AddUserForm } from "./add-user-form";
import { UsersTable } from "./users-table";

export const metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requirePageUser("ADMIN", "/users");
  return (
    <>
      <PageHeader title="Users" description="People who can sign in to this console, and what their role lets them do." />
      <div className="grid grid-cols-1 gap-6">
        <AddUserForm />
        <UsersTable currentUserId={me.id} />
      </div>
    </>
  );
}
