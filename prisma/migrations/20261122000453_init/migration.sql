-- CreateEnum (values in alphabetical order: PostgreSQL sorts an enum by declaration order,
-- and the API sorts enum fields by their string value)
CREATE TYPE "SourceType" AS ENUM ('BankTransfer', 'Cash', 'Check', 'CreditCard', 'DebitCard', 'DirectDebit', 'OnlineWallet', 'Other');

-- CreateEnum
CREATE TYPE "AccountType" AS ENUM ('Asset', 'Equity', 'Expense', 'Liability', 'Revenue');

-- CreateTable
CREATE TABLE "Account" (
    "id" UUID NOT NULL,
    "code" VARCHAR(50) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "type" "AccountType" NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentSource" (
    "id" UUID NOT NULL,
    "code" VARCHAR(50) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "description" VARCHAR(1000),
    "accountId" UUID NOT NULL,
    "sourceType" "SourceType" NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID NOT NULL,
    "updatedAt" TIMESTAMPTZ(3),
    "updatedById" UUID,

    CONSTRAINT "PaymentSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" UUID NOT NULL,
    "paymentSourceId" UUID NOT NULL,
    "customerId" UUID NOT NULL,
    "amount" DECIMAL(19,4) NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "reference" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID NOT NULL,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaxCode" (
    "id" UUID NOT NULL,
    "code" VARCHAR(50) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "description" VARCHAR(1000),
    "rate" DECIMAL(7,2) NOT NULL,
    "taxType" VARCHAR(20) NOT NULL,
    "taxAccountId" UUID NOT NULL,
    "revenueAccountId" UUID NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validTo" TIMESTAMPTZ(3),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID NOT NULL,
    "updatedAt" TIMESTAMPTZ(3),
    "updatedById" UUID,

    CONSTRAINT "TaxCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Article" (
    "id" UUID NOT NULL,
    "code" VARCHAR(50) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "description" VARCHAR(1000),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "defaultTaxCodeId" UUID,
    "defaultCostCenterId" UUID,
    "revenueAccountId" UUID,
    "useArticleCostCenter" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID NOT NULL,
    "updatedAt" TIMESTAMPTZ(3),
    "updatedById" UUID,

    CONSTRAINT "Article_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ArticlePrice" (
    "id" UUID NOT NULL,
    "articleId" UUID NOT NULL,
    "amount" DECIMAL(19,4) NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ArticlePrice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Customer" (
    "id" UUID NOT NULL,
    "firstName" VARCHAR(200) NOT NULL,
    "lastName" VARCHAR(200) NOT NULL,
    "matriculationId" VARCHAR(50),
    "cmsStudentId" VARCHAR(50),
    "email" VARCHAR(320),
    "debtorNumber" VARCHAR(50) NOT NULL,
    "creditorNumber" VARCHAR(50),
    "receivableAccountId" UUID,
    "prepaymentAccountId" UUID,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Address" (
    "id" UUID NOT NULL,
    "customerId" UUID NOT NULL,
    "addressType" VARCHAR(50) NOT NULL,
    "street" VARCHAR(200) NOT NULL,
    "city" VARCHAR(100) NOT NULL,
    "postalCode" VARCHAR(20) NOT NULL,
    "country" VARCHAR(100) NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Address_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AcademicTerm" (
    "id" UUID NOT NULL,
    "code" VARCHAR(20) NOT NULL,
    "startDate" TIMESTAMPTZ(3) NOT NULL,
    "endDate" TIMESTAMPTZ(3) NOT NULL,
    "statisticalSemester" VARCHAR(50),
    "externalSystemId" VARCHAR(100),

    CONSTRAINT "AcademicTerm_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Account_code_key" ON "Account"("code");

-- CreateIndex
CREATE INDEX "Account_type_isActive_idx" ON "Account"("type", "isActive");

-- CreateIndex
CREATE INDEX "PaymentSource_accountId_idx" ON "PaymentSource"("accountId");

-- CreateIndex
CREATE INDEX "PaymentSource_isActive_idx" ON "PaymentSource"("isActive");

-- CreateIndex
CREATE INDEX "PaymentSource_sourceType_idx" ON "PaymentSource"("sourceType");

-- CreateIndex
CREATE INDEX "Payment_paymentSourceId_idx" ON "Payment"("paymentSourceId");

-- CreateIndex
CREATE INDEX "Payment_customerId_idx" ON "Payment"("customerId");

-- CreateIndex
CREATE INDEX "Payment_receivedAt_idx" ON "Payment"("receivedAt");

-- CreateIndex
CREATE INDEX "TaxCode_code_idx" ON "TaxCode"("code");

-- CreateIndex
CREATE INDEX "TaxCode_taxAccountId_idx" ON "TaxCode"("taxAccountId");

-- CreateIndex
CREATE INDEX "TaxCode_revenueAccountId_idx" ON "TaxCode"("revenueAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "Article_code_key" ON "Article"("code");

-- CreateIndex
CREATE INDEX "Article_defaultTaxCodeId_idx" ON "Article"("defaultTaxCodeId");

-- CreateIndex
CREATE INDEX "Article_revenueAccountId_idx" ON "Article"("revenueAccountId");

-- CreateIndex
CREATE INDEX "Article_name_idx" ON "Article"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ArticlePrice_articleId_validFrom_key" ON "ArticlePrice"("articleId", "validFrom");

-- CreateIndex
CREATE UNIQUE INDEX "Customer_debtorNumber_key" ON "Customer"("debtorNumber");

-- CreateIndex
CREATE INDEX "Customer_lastName_id_idx" ON "Customer"("lastName", "id");

-- CreateIndex
CREATE INDEX "Customer_matriculationId_idx" ON "Customer"("matriculationId");

-- CreateIndex
CREATE INDEX "Customer_email_idx" ON "Customer"("email");

-- CreateIndex
CREATE INDEX "Customer_receivableAccountId_idx" ON "Customer"("receivableAccountId");

-- CreateIndex
CREATE INDEX "Customer_prepaymentAccountId_idx" ON "Customer"("prepaymentAccountId");

-- CreateIndex
CREATE INDEX "Address_customerId_idx" ON "Address"("customerId");

-- CreateIndex
CREATE UNIQUE INDEX "AcademicTerm_code_key" ON "AcademicTerm"("code");

-- CreateIndex
CREATE INDEX "AcademicTerm_startDate_endDate_idx" ON "AcademicTerm"("startDate", "endDate");

-- AddForeignKey
ALTER TABLE "PaymentSource" ADD CONSTRAINT "PaymentSource_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_paymentSourceId_fkey" FOREIGN KEY ("paymentSourceId") REFERENCES "PaymentSource"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_taxAccountId_fkey" FOREIGN KEY ("taxAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_revenueAccountId_fkey" FOREIGN KEY ("revenueAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Article" ADD CONSTRAINT "Article_defaultTaxCodeId_fkey" FOREIGN KEY ("defaultTaxCodeId") REFERENCES "TaxCode"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Article" ADD CONSTRAINT "Article_revenueAccountId_fkey" FOREIGN KEY ("revenueAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArticlePrice" ADD CONSTRAINT "ArticlePrice_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Customer" ADD CONSTRAINT "Customer_receivableAccountId_fkey" FOREIGN KEY ("receivableAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Customer" ADD CONSTRAINT "Customer_prepaymentAccountId_fkey" FOREIGN KEY ("prepaymentAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Address" ADD CONSTRAINT "Address_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Rules kept by the database itself, so that concurrent requests cannot break them.
-- The Prisma schema language cannot express these, so they are hand-written (see prisma/README.md).

-- Payment source codes are unique regardless of case.
CREATE UNIQUE INDEX "PaymentSource_code_lower_key" ON "PaymentSource" (lower("code"));
-- At most one default payment source.
CREATE UNIQUE INDEX "PaymentSource_one_default_key" ON "PaymentSource" ("isDefault") WHERE "isDefault";
-- At most one default address per customer.
CREATE UNIQUE INDEX "Address_one_default_per_customer_key" ON "Address" ("customerId") WHERE "isDefault";

ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_taxType_check" CHECK ("taxType" IN ('VAT', 'Sales Tax', 'Exempt'));
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_validity_check" CHECK ("validTo" IS NULL OR "validTo" >= "validFrom");
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_rate_check" CHECK ("rate" >= 0);
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_amount_check" CHECK ("amount" > 0);
ALTER TABLE "ArticlePrice" ADD CONSTRAINT "ArticlePrice_amount_check" CHECK ("amount" >= 0);
ALTER TABLE "AcademicTerm" ADD CONSTRAINT "AcademicTerm_dates_check" CHECK ("endDate" >= "startDate");

-- startswith() and contains() filters on names: LIKE with a fixed prefix can use these whatever the collation.
CREATE INDEX "Customer_lastName_pattern_idx" ON "Customer" ("lastName" text_pattern_ops);
CREATE INDEX "PaymentSource_code_pattern_idx" ON "PaymentSource" ("code" text_pattern_ops);
CREATE INDEX "Article_code_pattern_idx" ON "Article" ("code" text_pattern_ops);
