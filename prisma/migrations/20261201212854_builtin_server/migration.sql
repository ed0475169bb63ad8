-- AlterEnum
ALTER TYPE "Transport" ADD VALUE 'BUILTIN';
